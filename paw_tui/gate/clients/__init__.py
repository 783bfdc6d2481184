"""One adapter per agent client: its payload in, our decision out in its own protocol."""
