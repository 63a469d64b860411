"""Stage 6, the views: tables, warp pictures, findings, the source view, comparisons, notebook HTML."""
