"""General tools outside any pipeline stage: the process pool and progress bars the CLI and validate share."""
