"""A photo of a machine's score display, made safe to keep and to show.

Words:
- *photo*: what a phone sends: JPEG, PNG or HEIC bytes. It is an image only if Pillow decodes
  it (the name and the Content-Type sent say nothing).
- *clean photo*: the decoded image turned upright (its EXIF orientation applied), shrunk so
  its long side is at most ``PHOTO_LONG_SIDE`` pixels and encoded again as a JPEG with no
  metadata at all: no EXIF, so no location or phone model, nothing of the file sent survives.
- *limits*: ``PHOTO_MAX_MB`` megabytes for one photo as sent, ``PHOTO_MAX_MEGAPIXELS`` million
  pixels (what a phone camera makes: read from the header, refused before any decoding),
  ``PHOTO_MEET_MAX_MB`` for every clean photo of one meet together (settings,
  docs/configuration.md), and `PHOTOS_PER_GAME`.
- *decoding*: costly (a small PNG may hold 60 million pixels), so it is bounded: a JPEG is
  decoded at the smallest scale at least the target size (`Image.draft`), a truncated file is
  refused (Pillow's ``LOAD_TRUNCATED_IMAGES`` stays off; a PNG without its end is refused
  unread), and a worker process decodes at most ``PHOTO_DECODES`` photos at once.

No database here: `flipwell.league.services.photos` stores what `clean_photo` returns.
"""

from __future__ import annotations

import io
import threading
import warnings
from dataclasses import dataclass
from typing import IO

from django.conf import settings
from PIL import Image, ImageOps, UnidentifiedImageError

from flipwell.league.refusals import Refusal

try:  # HEIC, as iPhones take photos: readable when pillow-heif is installed.
    from pillow_heif import register_heif_opener
except ImportError:  # pragma: no cover - an install without it reads JPEG and PNG only
    pass
else:
    register_heif_opener()

FORMATS = frozenset({"JPEG", "PNG", "HEIF"})
"""The formats a photo may come in, as Pillow names them."""
PHOTOS_PER_GAME = 4
"""Enough for a display shown in parts; more is a mistake or abuse."""
QUALITY = 85
PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"
"""The IEND chunk every whole PNG ends with."""

_decodes: threading.BoundedSemaphore | None = None
_decodes_lock = threading.Lock()


@dataclass(frozen=True)
class CleanPhoto:
    """A clean photo's JPEG bytes and its size in pixels."""

    content: bytes
    width: int
    height: int


def megabytes(size: int) -> str:
    """`size` bytes in megabytes, as people read it ("8 MB", "0.4 MB")."""
    value = size / 1_000_000
    return f"{value:.0f} MB" if value >= 10 or value == int(value) else f"{value:.1f} MB"


def max_photo_bytes() -> int:
    """The largest photo accepted as sent, in bytes (``PHOTO_MAX_MB``)."""
    return int(settings.PHOTO_MAX_MB) * 1_000_000


def max_meet_bytes() -> int:
    """The most the clean photos of one meet may take together, in bytes."""
    return int(settings.PHOTO_MEET_MAX_MB) * 1_000_000


def max_pixels() -> int:
    """The most pixels a photo may have (``PHOTO_MAX_MEGAPIXELS`` million)."""
    return int(settings.PHOTO_MAX_MEGAPIXELS) * 1_000_000


def decode_slots() -> threading.BoundedSemaphore:
    """This process's decoding slots: ``PHOTO_DECODES`` photos decoded at once, others wait."""
    global _decodes
    with _decodes_lock:
        if _decodes is None:
            _decodes = threading.BoundedSemaphore(int(settings.PHOTO_DECODES))
        return _decodes


def clean_photo(file: IO[bytes], *, size: int) -> CleanPhoto:
    """The clean photo of `file` (`size` bytes as sent); ValidationError on ``photo`` when it
    is larger than the limit (the message says the limit) or is not a JPEG, PNG or HEIC image
    Pillow can decode."""
    limit = max_photo_bytes()
    data = b"" if size > limit else file.read(limit + 1)  # never more than the limit read
    if size > limit or len(data) > limit:
        size = max(size, len(data))
        raise Refusal(
            {"photo": f"This photo is {megabytes(size)}: at most {megabytes(limit)} per photo."},
            code="photo_too_large",
        )
    long_side = int(settings.PHOTO_LONG_SIDE)
    with decode_slots():
        image = _decoded(data, long_side)
        upright = ImageOps.exif_transpose(image).convert("RGB")
        upright.thumbnail((long_side, long_side), Image.Resampling.LANCZOS)
        # Only the pixels go on: a new image, so no EXIF, XMP, ICC profile, comment (a JPEG
        # COM segment) or PNG text chunk of the file sent can be carried along.
        pixels = Image.new("RGB", upright.size)
        pixels.paste(upright)
    out = io.BytesIO()
    pixels.save(out, format="JPEG", quality=QUALITY, optimize=True)
    return CleanPhoto(content=out.getvalue(), width=pixels.width, height=pixels.height)


def _decoded(data: bytes, long_side: int) -> Image.Image:
    """The decoded image of `data`, a JPEG at the smallest scale at least `long_side` on its
    long side; ValidationError when it is none we take, before any decoding when its header
    says too many pixels or it is a PNG without its end."""
    not_image = Refusal(
        {"photo": "This file is not a photo flipwell can read: send a JPEG, PNG or HEIC image."},
        code="not_an_image",
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))  # reads the header only
            if image.format not in FORMATS:
                raise not_image
            if image.width * image.height > max_pixels():
                raise Refusal(
                    {"photo": "This photo has too many pixels: take it again at a lower size."},
                    code="photo_too_large",
                )
            if image.format == "PNG" and PNG_END not in data[-4096:]:
                raise not_image  # truncated: refused without decoding what is there
            if image.format == "JPEG":
                image.draft("RGB", (long_side, long_side))
            image.load()  # decodes every pixel: a truncated or forged file fails here
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning) as error:  # fmt: skip
        raise not_image from error
    return image
