"""Players' faces for the narrator's phone: whatever the camera gives, kept small.

A phone photo is several megabytes, carries the camera's metadata (the place it was
taken, among others) and may be rotated only by an EXIF flag. The service decodes
it with Pillow, turns it upright, crops the middle square, scales it down and stores
a fresh JPEG of a few kilobytes: nothing of the original file is kept, and anything
that is not an image is refused.
"""
from __future__ import annotations

import io

from PIL import Image, ImageOps, UnidentifiedImageError

# Uploads larger than this are refused before decoding (a phone photo is 2-8 MB).
MAX_UPLOAD = 15 * 1024 * 1024
# The upload's whole request (the photo, the form's few fields, the multipart framing):
# the limit of the narrator's seating view, above every other page's MAX_CONTENT_LENGTH,
# and the nginx example's for that path. A larger one is refused before it is read.
MAX_REQUEST = MAX_UPLOAD + 1024 * 1024
# Refuse images whose pixel count could exhaust memory while decoding (Pillow warns
# at its own limit; we refuse well before it).
MAX_PIXELS = 60_000_000
SIDE = 256  # pixels: a face on the narrator's screen is at most ~100 CSS px wide
CONTENT_TYPE = "image/jpeg"


class PhotoError(ValueError):
    """The upload is not a usable picture: code says why (too_big, not_an_image)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def normalise(raw: bytes) -> bytes:
    """A square JPEG of SIDE pixels from an uploaded picture, or PhotoError."""
    if len(raw) > MAX_UPLOAD:
        raise PhotoError("too_big")
    try:
        with Image.open(io.BytesIO(raw)) as img:
            if img.width * img.height > MAX_PIXELS:
                raise PhotoError("too_big")
            img.load()
            upright = ImageOps.exif_transpose(img)
            square = ImageOps.fit(upright.convert("RGB"), (SIDE, SIDE), Image.Resampling.LANCZOS)
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError, SyntaxError):
        raise PhotoError("not_an_image") from None
    out = io.BytesIO()
    square.save(out, "JPEG", quality=82, optimize=True)
    return out.getvalue()
