"""Logging and metrics."""
