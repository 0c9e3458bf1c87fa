"""Front ends that move a campaign in and out of drunagor: the companion apps' token, and git (the
merge driver, `drunagor sync`)."""
