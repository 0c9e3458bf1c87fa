"""Front ends that move a campaign in and out of drunagor: the companion apps' token."""
