"""Modal screens: approval, confirmation, record detail."""
