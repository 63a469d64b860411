"""Stage 5, the models: GPU profiles, occupancy and block placement, caches, time."""
