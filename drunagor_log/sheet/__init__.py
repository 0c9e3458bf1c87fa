"""The campaign as sheets to look at: a self-contained HTML page or Markdown (`drunagor sheet`).

The view, the rendering and the output file are in `sheets.py`, re-exported here (`sheet.view(campaign)`,
`sheet.render(view, fmt)`); the Jinja2 templates are in templates/.
"""

from .sheets import (
    CAMPAIGN_FILES,
    DEFAULT_NAME,
    FORMATS,
    SUFFIX,
    TEMPLATES,
    check_out,
    format_for,
    html_visible,
    md_anchor,
    md_escape,
    md_names,
    open_in_browser,
    output_path,
    render,
    view,
    write,
)

__all__ = ["CAMPAIGN_FILES", "DEFAULT_NAME", "FORMATS", "SUFFIX", "TEMPLATES", "check_out", "format_for",
           "html_visible", "md_anchor", "md_escape", "md_names", "open_in_browser", "output_path", "render", "view",
           "write"]
