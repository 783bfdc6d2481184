"""Full screens pushed over the main one."""
