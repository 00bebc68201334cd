"""How the web names a post: an opaque token for each post of a room, never its id.

Post ids are one sequence for every room of every game. Shown on a page (an anchor, the
"older" link, the polling endpoint's address), the gaps between one room's posts would
tell its readers how much was said meanwhile in rooms they are not in (the den of a
faction, whispers between others), and when. So the room's page, its links and its
polling endpoint name a post by a token: the room's id and the post's in one AES block
under a key of the service's own (derived from SECRET_KEY). A token says nothing to a
reader; the service alone turns it back into the post's id, and only for the room it
was made for.

One block of a block cipher is a keyed permutation: exactly what hides a number, with
no state to keep (``cryptography``'s AES, not a cipher of our own).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from functools import lru_cache

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

# What the polling endpoint is given before a room has any post: "everything".
FROM_THE_START = "0"
_BLOCK = struct.Struct(">QQ")  # the room's id, the post's id
_LENGTH = 22  # 16 bytes in URL-safe base64, without its padding


@lru_cache(maxsize=4)
def _cipher(secret: str) -> Cipher:
    key = hashlib.sha256(b"lupus-pbm post tokens\0" + secret.encode()).digest()
    return Cipher(algorithms.AES(key), modes.ECB())  # one block, a permutation: no mode needed


class PostTokens:
    """The tokens of one room's posts, for one request (not shared between threads)."""

    def __init__(self, secret: str, room_id: int) -> None:
        cipher = _cipher(secret)
        self.room_id = room_id
        self._encrypt = cipher.encryptor()
        self._decrypt = cipher.decryptor()

    def of(self, post_id: int) -> str:
        block = self._encrypt.update(_BLOCK.pack(self.room_id, post_id))
        return base64.urlsafe_b64encode(block).decode().rstrip("=")

    def id_of(self, token: str) -> int | None:
        """The id of the post this token names in this room; 0 for ``FROM_THE_START``;
        None for anything else (a token of another room, a forged or mistyped one)."""
        if token == FROM_THE_START:
            return 0
        if len(token) != _LENGTH:
            return None
        try:
            block = base64.urlsafe_b64decode(token + "==")
        except (binascii.Error, ValueError):
            return None
        if len(block) != _BLOCK.size:
            return None
        room_id, post_id = _BLOCK.unpack(self._decrypt.update(block))
        return post_id if room_id == self.room_id and post_id > 0 else None
