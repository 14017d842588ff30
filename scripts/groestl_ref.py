"""Grøstl constants from the specification, shared by the assembly generators
(`gen-mcu-groestl.py`, `gen-neon7-groestl.py`): GF(2^8) arithmetic, the AES S-box (computed,
not copied), the MixBytes row, the ShiftBytes amounts and the round counts."""


def gmul2(x):
    x <<= 1
    return (x ^ 0x11B) if x & 0x100 else x


def gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = gmul2(a)
        b >>= 1
    return r


def make_sbox():
    inv = [0] * 256
    for x in range(1, 256):
        for y in range(1, 256):
            if gmul(x, y) == 1:
                inv[x] = y
                break
    s = []
    for x in range(256):
        b = inv[x]
        y = b
        for i in range(1, 5):
            y ^= ((b << i) | (b >> (8 - i))) & 0xFF
        s.append(y ^ 0x63)
    return s


SBOX = make_sbox()
MIXROW = [2, 2, 3, 4, 5, 3, 5, 7]
# ShiftBytes amounts per row, keyed by (columns, "P" or "Q").
SIGMA = {
    (8, "P"): [0, 1, 2, 3, 4, 5, 6, 7],
    (8, "Q"): [1, 3, 5, 7, 0, 2, 4, 6],
    (16, "P"): [0, 1, 2, 3, 4, 5, 6, 11],
    (16, "Q"): [1, 3, 5, 11, 0, 2, 4, 6],
}
ROUNDS = {8: 10, 16: 14}
