"""render — Views to PNG bytes with Pillow. Never sees a full State."""
