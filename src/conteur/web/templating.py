"""The package's Jinja templates: one environment per process, its templates compiled once.

Every app built by ``create_app`` reads the same templates, so they share one environment
(Jinja keeps each compiled template in it): the next app in the same process does not
compile them again. ``compile_all`` compiles them ahead of the first page.
"""

from __future__ import annotations

from functools import cache

from jinja2 import Environment, PackageLoader, select_autoescape


@cache
def package_templates() -> Environment:
    """The environment over ``conteur.web``'s templates (autoescaped HTML)."""
    return Environment(
        loader=PackageLoader("conteur.web", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # the templates are the package's: no disk check per render
        cache_size=-1,  # every template stays compiled
    )


def compile_all() -> int:
    """Compile every template now (the first page then renders at its steady speed); the
    number compiled."""
    env = package_templates()
    names = env.list_templates(filter_func=lambda name: name.endswith(".html"))
    for name in names:
        env.get_template(name)
    return len(names)
