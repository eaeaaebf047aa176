"""The web app of inarow: ``create_app`` and ``serve``."""

from inarow.web.app import Settings, create_app

__all__ = ["Settings", "create_app"]
