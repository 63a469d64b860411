"""Stage 3, the engines: one launch emulated warp by warp, its memory traffic counted."""
