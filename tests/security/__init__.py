"""Issue #17, "Closed to strangers": each row of the attack table, through the real app."""
