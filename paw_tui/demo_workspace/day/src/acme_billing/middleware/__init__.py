"""ASGI middleware shared by every route."""
