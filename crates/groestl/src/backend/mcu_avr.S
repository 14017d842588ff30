; Grøstl permutations P and Q for AVR (ATmega, the `mcu` backend on `target_arch = "avr"`),
; included by `mcu_avr.rs` with `global_asm!(…, options(raw))` and assembled by LLVM's AVR
; assembler (GNU-as syntax and macros; `docs/embedded.md` describes the design and figures).
;
; State layout (every kernel): the byte in column c, row r is at offset 8c + 7 - r, i.e. each
; column is one little-endian u64 with row 0 in its most significant byte: the layout of the
; chaining value `h: [u64; N]` in AVR memory, so h is XORed in and out without reordering.
;
; Per round, column by column:
;  * AddRoundConstant: P adds (c << 4) ^ i to row 0 only; Q complements every byte and adds
;    (c << 4) ^ i to row 7. The complement is folded into a second S-box table
;    (SQ(x) = S(x ^ 0xff)); the rest is one EOR on the byte of the constant's row before its
;    S-box look-up. As i < 16, (c << 4) ^ i = i + 16c: the constant register gains 16 per
;    column.
;  * SubBytes: LPM from a 256-byte-aligned table in flash, `ZH` = table page, `ZL` = byte.
;    LPM takes 3 cycles at every flash address on every AVR core (no cache, no prefetch
;    buffer whose state depends on data), so these look-ups are constant-time.
;  * ShiftBytes: folded into the load addresses (fast kernel: LDD displacements; `mcu-small`
;    kernel: LDD/STD displacements of a state whose rows are stored rotated, see there) or done
;    by a row rotation pass before the column pass (Grøstl-384/512 in-place kernel, whose last
;    round XORs its output into h instead of storing it).
;  * MixBytes: the 40-XOR program of `slicewise slp` (FMIX, SMIX: 119 cycles per column) in the
;    Grøstl-224/256 kernels, the shared-term formula of paper [A] §4.3 (MIX: 48 XORs, 124
;    cycles) in the Grøstl-384/512 one; 16 doublings per column, each one look-up in a
;    256-byte table of 2·x, taken while the operand is in ZL anyway: LPM from flash in the
;    in-place kernels, LD from a copy in SRAM in the fast kernel (2 cycles instead of 3: 103
;    cycles per column instead of 119). LD from SRAM takes 2 cycles at every address as LPM
;    takes 3 (no AVR core has a data cache; internal SRAM has no wait states), so the SRAM
;    look-ups are as constant-time as the flash ones. The price: 256 B of static RAM (.data)
;    in images that use the fast kernel, and its 256-byte initialisation image in flash.
;
; Register map of the fast and Grøstl-384/512 permutation kernels (the `mcu-small` one has its
; own, at its macros):
;   r0-r7    a_r: one column, row r in r<r>, after SubBytes (then y values, see MIX)
;   r8-r15   t_i (MIX); r0-r15 hold a whole 16-byte row in the rotation pass
;   r16      round constant of the current column (fast kernel; r18 in the in-place ones)
;   r17      round number i (fast kernel; r19 in the in-place ones)
;   r18:r19  buffer A (fast kernel)
;   r20:r21  buffer B = A + 64 (fast kernel) / r20 column counter, r21 scratch (in-place)
;   r22:r23  m, r24:r25 h (block functions; the permutations do not touch them)
;   X        output pointer, Y input pointer, Z table (r31 page, r30 index)
; r1 (avr-gcc's zero register) is used as data and cleared before every return.

; The tables: LPM reads the low 64 KiB of flash only. avr-ld's default scripts place
; `.progmem.gcc*` first, right after the vector table, "for data that needs to reside in the
; lower 64k of progmem", ahead of any other program-memory data.
    .section .progmem.gcc_sw_groestl_avr,"a",@progbits
    .p2align 8
    .type sw_groestl_avr_sbox_p, @object
    .size sw_groestl_avr_sbox_p, 256
sw_groestl_avr_sbox_p:
    .byte 0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76
    .byte 0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0
    .byte 0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15
    .byte 0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75
    .byte 0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84
    .byte 0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf
    .byte 0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8
    .byte 0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2
    .byte 0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73
    .byte 0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb
    .byte 0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79
    .byte 0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08
    .byte 0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a
    .byte 0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e
    .byte 0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf
    .byte 0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16
    .type sw_groestl_avr_sbox_q, @object
    .size sw_groestl_avr_sbox_q, 256
sw_groestl_avr_sbox_q:
    .byte 0x16, 0xbb, 0x54, 0xb0, 0x0f, 0x2d, 0x99, 0x41, 0x68, 0x42, 0xe6, 0xbf, 0x0d, 0x89, 0xa1, 0x8c
    .byte 0xdf, 0x28, 0x55, 0xce, 0xe9, 0x87, 0x1e, 0x9b, 0x94, 0x8e, 0xd9, 0x69, 0x11, 0x98, 0xf8, 0xe1
    .byte 0x9e, 0x1d, 0xc1, 0x86, 0xb9, 0x57, 0x35, 0x61, 0x0e, 0xf6, 0x03, 0x48, 0x66, 0xb5, 0x3e, 0x70
    .byte 0x8a, 0x8b, 0xbd, 0x4b, 0x1f, 0x74, 0xdd, 0xe8, 0xc6, 0xb4, 0xa6, 0x1c, 0x2e, 0x25, 0x78, 0xba
    .byte 0x08, 0xae, 0x7a, 0x65, 0xea, 0xf4, 0x56, 0x6c, 0xa9, 0x4e, 0xd5, 0x8d, 0x6d, 0x37, 0xc8, 0xe7
    .byte 0x79, 0xe4, 0x95, 0x91, 0x62, 0xac, 0xd3, 0xc2, 0x5c, 0x24, 0x06, 0x49, 0x0a, 0x3a, 0x32, 0xe0
    .byte 0xdb, 0x0b, 0x5e, 0xde, 0x14, 0xb8, 0xee, 0x46, 0x88, 0x90, 0x2a, 0x22, 0xdc, 0x4f, 0x81, 0x60
    .byte 0x73, 0x19, 0x5d, 0x64, 0x3d, 0x7e, 0xa7, 0xc4, 0x17, 0x44, 0x97, 0x5f, 0xec, 0x13, 0x0c, 0xcd
    .byte 0xd2, 0xf3, 0xff, 0x10, 0x21, 0xda, 0xb6, 0xbc, 0xf5, 0x38, 0x9d, 0x92, 0x8f, 0x40, 0xa3, 0x51
    .byte 0xa8, 0x9f, 0x3c, 0x50, 0x7f, 0x02, 0xf9, 0x45, 0x85, 0x33, 0x4d, 0x43, 0xfb, 0xaa, 0xef, 0xd0
    .byte 0xcf, 0x58, 0x4c, 0x4a, 0x39, 0xbe, 0xcb, 0x6a, 0x5b, 0xb1, 0xfc, 0x20, 0xed, 0x00, 0xd1, 0x53
    .byte 0x84, 0x2f, 0xe3, 0x29, 0xb3, 0xd6, 0x3b, 0x52, 0xa0, 0x5a, 0x6e, 0x1b, 0x1a, 0x2c, 0x83, 0x09
    .byte 0x75, 0xb2, 0x27, 0xeb, 0xe2, 0x80, 0x12, 0x07, 0x9a, 0x05, 0x96, 0x18, 0xc3, 0x23, 0xc7, 0x04
    .byte 0x15, 0x31, 0xd8, 0x71, 0xf1, 0xe5, 0xa5, 0x34, 0xcc, 0xf7, 0x3f, 0x36, 0x26, 0x93, 0xfd, 0xb7
    .byte 0xc0, 0x72, 0xa4, 0x9c, 0xaf, 0xa2, 0xd4, 0xad, 0xf0, 0x47, 0x59, 0xfa, 0x7d, 0xc9, 0x82, 0xca
    .byte 0x76, 0xab, 0xd7, 0xfe, 0x2b, 0x67, 0x01, 0x30, 0xc5, 0x6f, 0x6b, 0xf2, 0x7b, 0x77, 0x7c, 0x63

; 2·x in GF(2^8), one 256-byte table (the macro), in flash for the in-place kernels (`LPM`, 3
; cycles) and in SRAM for the fast one (`LD`, 2 cycles). Each in a section of its own, which
; --gc-sections drops from an image whose kernels do not reference it: a `mcu-small` image has
; no SRAM table, an image without Grøstl-384/512 (or `mcu-small`) no flash one.
.macro MUL2TABLE name
    .p2align 8
    .type \name, @object
    .size \name, 256
\name:
    .set x, 0
    .rept 256
    .byte ((x << 1) ^ (((x >> 7) & 1) * 0x1b)) & 0xff
    .set x, x + 1
    .endr
.endm

    .section .progmem.gcc_sw_groestl_avr_mul2,"a",@progbits
    MUL2TABLE sw_groestl_avr_mul2

; The fast kernel's copy in SRAM: initialised data, copied from flash at reset by the C
; runtime's __do_copy_data (avr-libc/libgcc, pulled in by this reference, as avr-gcc does for
; every object with .data). Section `.data` itself, not `.data.NAME`: avr-ld's scripts place
; `*(.data)` first in the output .data, which starts at a multiple of 256 on every AVR whose RAM
; starts at 0x100 or 0x200 (ATmega1284P: 0x800100), so the 256-byte alignment costs no padding.
; `LD` from SRAM takes 2 cycles at every address (no cache, no wait states that depend on the
; address): as constant-time as the LPM look-ups (docs/embedded.md).
    .section .data,"aw",@progbits
    .global __do_copy_data
    MUL2TABLE sw_groestl_avr_mul2_ram

; ---------------------------------------------------------------------------------------
; MixBytes of the column a_0..a_7 in r0..r7 (ZH = doubling table). Stores b_7, b_6, ..., b_0
; with `st X+` (ascending addresses: row 7 first). Formula, indices mod 8:
;   t_i = a_i ^ a_(i+1),  y_i = t_i ^ t_(i+2) ^ a_(i+6),
;   b_i = 2·(2·(t_(i+3) ^ t_(i+6)) ^ y_(i+7)) ^ y_(i+4).
; y_i overwrites a_(i+6) (nothing else reads it), so y_j lives in r((j+6) mod 8).
.macro MIXOUT ta, tb, ya, yb, toh
    mov r30, \ta
    eor r30, \tb
    lpm r30, Z
    eor r30, \ya
    lpm r30, Z
    eor r30, \yb
    .if \toh
    ld r21, X
    eor r30, r21
    .endif
    st X+, r30
.endm

; toh = 1: XOR b into the bytes at X instead of overwriting them (last round, X = h).
.macro MIX toh
    movw r8, r0
    movw r10, r2
    movw r12, r4
    movw r14, r6
    eor r8, r1
    eor r9, r2
    eor r10, r3
    eor r11, r4
    eor r12, r5
    eor r13, r6
    eor r14, r7
    eor r15, r0
    eor r6, r8
    eor r6, r10
    eor r7, r9
    eor r7, r11
    eor r0, r10
    eor r0, r12
    eor r1, r11
    eor r1, r13
    eor r2, r12
    eor r2, r14
    eor r3, r13
    eor r3, r15
    eor r4, r14
    eor r4, r8
    eor r5, r15
    eor r5, r9
    MIXOUT r10, r13, r4, r1, \toh
    MIXOUT r9, r12, r3, r0, \toh
    MIXOUT r8, r11, r2, r7, \toh
    MIXOUT r15, r10, r1, r6, \toh
    MIXOUT r14, r9, r0, r5, \toh
    MIXOUT r13, r8, r7, r4, \toh
    MIXOUT r12, r15, r6, r3, \toh
    MIXOUT r11, r14, r5, r2, \toh
.endm

;
; MixBytes of the column a_0..a_7 in r0..r7 (ZH = doubling table), 40 XORs and 16 doublings:
; the word-level program crates/slp/programs/groestl_mixbytes.word (found by `slicewise slp`).
; 24 XORs form the values A_i, B_i, C_i, then b_i = 2·(2·A_i ^ B_i) ^ C_i (HORNER: 8 cycles
; with LPM, 6 with `ld` = LD from the SRAM table). Scheduled and register-allocated for AVR by
; exhaustive search over the orders of the program's operations (fewest copies, for a bound on
; the registers): 3 copies, 119 cycles per column with the 8 stores (103 with LD), 5 fewer
; than MIX. MIXHEAD is the first 14 of the 24 XORs,
; common to both schedules (temporaries ta, tb, tc).
.macro HORNER a, b, c, ld=lpm
    mov r30, \a
    \ld r30, Z
    eor r30, \b
    \ld r30, Z
    eor r30, \c
.endm

.macro MIXHEAD ta, tb, tc
    eor r3, r7
    eor r0, r2
    eor r4, r3
    mov r8, r6
    eor r8, r4
    eor r7, r0
    mov r9, r3
    eor r9, r0
    eor r0, r8
    eor r5, r7
    mov \ta, r1
    eor \ta, r5
    mov \tb, r0
    eor \tb, \ta
    eor r2, r4
    eor r1, r2
    mov \tc, r7
    eor \tc, r1
    eor r3, \tc
.endm

; Fast kernel: b_7 first, `st X+` (as MIX), temporaries r8-r14 (15 registers in all); toh = 1:
; XORed into the bytes at X (the last round, X = h). ZH = the SRAM copy of the 2·x table.
.macro FOUT toh
    .if \toh
    ld r15, X
    eor r30, r15
    .endif
    st X+, r30
.endm

.macro FMIX toh
    MIXHEAD r10, r11, r12
    mov r13, r5
    eor r13, r3
    eor r6, r3
    eor r3, r11
    eor r7, r3
    eor r2, r6
    mov r14, r0
    eor r14, r7
    eor r0, r12
    HORNER r7, r6, r11, ld
    FOUT \toh
    eor r7, r4
    eor r4, r5
    eor r5, r0
    HORNER r13, r3, r4, ld
    FOUT \toh
    HORNER r12, r7, r1, ld
    FOUT \toh
    HORNER r9, r11, r2, ld
    FOUT \toh
    HORNER r0, r4, r10, ld
    FOUT \toh
    HORNER r5, r1, r6, ld
    FOUT \toh
    HORNER r14, r2, r3, ld
    FOUT \toh
    HORNER r8, r10, r7, ld
    FOUT \toh
.endm

; ---------------------------------------------------------------------------------------
; Fast 512-bit kernel: two buffers; each round reads A (Y) and writes B (X), then swaps.
; Column c of the output reads row r from input column (c + s_r) mod 8: ShiftBytes costs
; nothing, it is the LDD displacement. Every column is unrolled.

; One byte of the gather: row r of output column c, read from column c + o (every kernel
; that gathers by displacement), plus the round constant `rc` if r is the constant's row.
.macro GB c, r, o, rcrow, rc
    ldd r30, Y+(8*((\c+\o)%8)+7-\r)
    .if \r == \rcrow
    eor r30, \rc
    .endif
    lpm r\r, Z
.endm

; One output column. rcs = shift of the constant's row: the constant of output column c is
; i + 16·((c + rcs) mod 8); after the column r16 moves to the next column's value.
.macro FCOL c, s0, s1, s2, s3, s4, s5, s6, s7, rcrow, rcs, tbl, toh
    ldi r31, hi8(\tbl)
    GB \c, 0, \s0, \rcrow, r16
    GB \c, 1, \s1, \rcrow, r16
    GB \c, 2, \s2, \rcrow, r16
    GB \c, 3, \s3, \rcrow, r16
    GB \c, 4, \s4, \rcrow, r16
    GB \c, 5, \s5, \rcrow, r16
    GB \c, 6, \s6, \rcrow, r16
    GB \c, 7, \s7, \rcrow, r16
    subi r16, (256 - ((16*((\c+1+\rcs)%8) + 256 - 16*((\c+\rcs)%8)) & 255)) & 255
    ldi r31, hi8(sw_groestl_avr_mul2_ram)
    FMIX \toh
.endm

; A permutation (10 rounds) on buffer A = r18:r19, with B = r20:r21 as scratch, whose last
; round XORs its output into h (r25:r24): h ^= P(A). A and B end swapped (9 swaps).
.macro FROUND s0, s1, s2, s3, s4, s5, s6, s7, rcrow, rcs, tbl, toh
    .irp c,0,1,2,3,4,5,6,7
    FCOL \c, \s0, \s1, \s2, \s3, \s4, \s5, \s6, \s7, \rcrow, \rcs, \tbl, \toh
    .endr
.endm

.macro FPERM512 s0, s1, s2, s3, s4, s5, s6, s7, rcrow, rcs, tbl
    clr r17
1:
    movw r28, r18
    movw r26, r20
    mov r16, r17
    .if \rcs
    subi r16, (256 - 16*\rcs) & 255
    .endif
    cpi r17, 9
    brne 3f
    jmp 2f
3:
    FROUND \s0, \s1, \s2, \s3, \s4, \s5, \s6, \s7, \rcrow, \rcs, \tbl, 0
    movw r28, r18
    movw r18, r20
    movw r20, r28
    inc r17
    jmp 1b
2:
    movw r26, r24
    FROUND \s0, \s1, \s2, \s3, \s4, \s5, \s6, \s7, \rcrow, \rcs, \tbl, 1
    ret
.endm
; ---------------------------------------------------------------------------------------
; In-place kernels (one state buffer, W = 8 or 16 columns): per round a rotation pass
; (ShiftBytes, row by row, rows with shift 0 skipped), then a column pass (AddRoundConstant,
; SubBytes, MixBytes, one column at a time, loaded and stored back in place).

; Rotates row r left by s columns (column c gets old column (c + s) mod W). Y = state.
.macro ROT r, s, w
    .if \s
    .irp j,0,1,2,3,4,5,6,7
    ldd r\j, Y+(8*\j+7-\r)
    .endr
    .if \w == 16
    subi r28, 0xC0
    sbci r29, 0xFF
    .irp j,8,9,10,11,12,13,14,15
    ldd r\j, Y+(8*(\j-8)+7-\r)
    .endr
    .irp j,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .if ((\j - \s + 16) % 16) >= 8
    std Y+(8*(((\j - \s + 16) % 16) - 8) + 7 - \r), r\j
    .endif
    .endr
    subi r28, 0x40
    sbci r29, 0x00
    .irp j,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .if ((\j - \s + 16) % 16) < 8
    std Y+(8*((\j - \s + 16) % 16) + 7 - \r), r\j
    .endif
    .endr
    .else
    .irp j,0,1,2,3,4,5,6,7
    std Y+(8*((\j - \s + 8) % 8) + 7 - \r), r\j
    .endr
    .endif
    .endif
.endm

; The column pass of one round: AddRoundConstant, SubBytes and MixBytes, column by column,
; read with Y, written with X (toh = 0: X = Y, in place; toh = 1: X = h, b XORed into h).
.macro COLPASS w, rcrow, rcs, tbl, toh
    mov r18, r19
    .if \rcs
    subi r18, (256 - 16*\rcs) & 255
    .endif
    ldi r20, \w
2:
    ldi r31, hi8(\tbl)
    .irp reg,7,6,5,4,3,2,1,0
    ld r30, Y+
    .if \reg == \rcrow
    eor r30, r18
    .endif
    lpm r\reg, Z
    .endr
    subi r18, 0xF0
    .if (\w == 8) && \rcs
    andi r18, 0x7F
    .endif
    ldi r31, hi8(sw_groestl_avr_mul2)
    MIX \toh
    dec r20
    breq 3f
    rjmp 2b
3:
.endm

; A permutation of `rounds` rounds in place on the state at Y; the last round's column pass
; XORs its output into h (r24:r25) instead of writing the state: h ^= P(state). Uses r18 (the
; constant), r19 (the round), r20, r21 and no other call-saved register than r2-r15 and Y, and
; returns with Y = state + 8w. No register holds the state's address: each round's column pass
; leaves Y 8w bytes past it.
.macro IPERM w, rounds, s0, s1, s2, s3, s4, s5, s6, s7, rcrow, rcs, tbl
    clr r19
1:
    ROT 0, \s0, \w
    ROT 1, \s1, \w
    ROT 2, \s2, \w
    ROT 3, \s3, \w
    ROT 4, \s4, \w
    ROT 5, \s5, \w
    ROT 6, \s6, \w
    ROT 7, \s7, \w
    cpi r19, \rounds - 1
    brne 4f
    rjmp 5f
4:
    movw r26, r28
    COLPASS \w, \rcrow, \rcs, \tbl, 0
    subi r28, (8*\w) & 255
    sbci r29, 0
    inc r19
    rjmp 1b
5:
    movw r26, r24
    COLPASS \w, \rcrow, \rcs, \tbl, 1
    ret
.endm

; ---------------------------------------------------------------------------------------
; The compression function around the permutations, on one block (W columns):
; s = h ^ m (m reordered to the state layout), P(s), h ^= s, s = m, Q(s), h ^= s.
; One state buffer at a time: never a P and a Q state together.

; s = h ^ m. X = s (from the register pair `st`), Y = h, Z = m; `cnt` counts columns.
.macro XORIN w, st=r18, cnt=r16
    movw r26, \st
    movw r28, r24
    movw r30, r22
    ldi \cnt, \w
1:
    .irp k,0,1,2,3,4,5,6,7
    ld r0, Y+
    ldd r1, Z+(7-\k)
    eor r0, r1
    st X+, r0
    .endr
    adiw r30, 8
    dec \cnt
    brne 1b
.endm

; s = m (s at Y; `cnt` counts columns).
.macro COPY w, cnt
    movw r26, r28
    movw r30, r22
    ldi \cnt, \w
1:
    .irp k,0,1,2,3,4,5,6,7
    ldd r0, Z+(7-\k)
    st X+, r0
    .endr
    adiw r30, 8
    dec \cnt
    brne 1b
.endm

; The in-place kernels save r2-r15 and Y only (SAVE16); the fast kernel r16 and r17 too.
.macro SAVE16
    .irp r,2,3,4,5,6,7,8,9,10,11,12,13,14,15,28,29
    push r\r
    .endr
.endm

.macro RESTORE16
    .irp r,29,28,15,14,13,12,11,10,9,8,7,6,5,4,3,2
    pop r\r
    .endr
    clr r1
    ret
.endm

.macro SAVE
    push r2
    push r3
    push r4
    push r5
    push r6
    push r7
    push r8
    push r9
    push r10
    push r11
    push r12
    push r13
    push r14
    push r15
    push r16
    push r17
    push r28
    push r29
.endm

.macro RESTORE
    pop r29
    pop r28
    pop r17
    pop r16
    pop r15
    pop r14
    pop r13
    pop r12
    pop r11
    pop r10
    pop r9
    pop r8
    pop r7
    pop r6
    pop r5
    pop r4
    pop r3
    pop r2
    clr r1
    ret
.endm

; A function: symbol, type and size around a body macro (`GFUNC`: a global one).
.macro FUNC name, body:vararg
    .type \name, @function
\name:
    \body
    .size \name, . - \name
.endm

.macro GFUNC name, body:vararg
    .global \name
    FUNC \name, \body
.endm

; Entry points, avr-gcc's ABI (h in r25:r24, then m in r23:r22 or st, then st in r21:r20):
;   block(uint8_t *h, const uint8_t *m, uint8_t *st): one compression, h updated in place;
;   perm(uint8_t *h, uint8_t *st): h ^= P(st), st clobbered (the output transformation).
; Fast kernel (buffers A = st, B = st + 64): P and Q XOR their result into h in their last round.
.macro FBLOCK p, q
    SAVE
    movw r18, r20
    movw r20, r18
    subi r20, 0xC0
    sbci r21, 0xFF
    XORIN 8
    call \p
    movw r28, r18
    COPY 8, r16
    call \q
    RESTORE
.endm

.macro FPERM p
    SAVE
    movw r18, r22
    movw r20, r18
    subi r20, 0xC0
    sbci r21, 0xFF
    call \p
    RESTORE
.endm
; In-place kernels: P and Q fold themselves into h in their last round, and return with Y
; 8w bytes past the state.
.macro IBLOCK w, p, q
    SAVE16
    XORIN \w, r20, r18
    movw r28, r20
    rcall \p
    subi r28, (8*\w) & 255
    sbci r29, 0
    COPY \w, r18
    rcall \q
    RESTORE16
.endm

.macro IPERMFN p
    SAVE16
    movw r28, r22
    rcall \p
    RESTORE16
.endm


; For SPAD: st = h (Z = h, X = st, r19 counts).
.macro HCOPY
    movw r30, r24
    movw r26, r28
    ldi r19, 64
1:
    ld r0, Z+
    st X+, r0
    dec r19
    brne 1b
.endm

; st[56..64] ^= t (X = st + 56, Z = t).
.macro TXOR
    movw r26, r28
    adiw r26, 56
    movw r30, r22
    ldi r19, 8
1:
    ld r0, Z+
    ld r1, X
    eor r1, r0
    st X+, r1
    dec r19
    brne 1b
.endm

; ---------------------------------------------------------------------------------------
; `mcu-small` Grøstl-224/256 kernel: one 64-byte state, ShiftBytes folded into the gather, no
; second buffer. Output column c reads its 8 bytes (one per row, from 8 different columns) and
; writes its 8 results back to exactly those 8 bytes, which no other column of the round reads:
; the state stays in place, but row r of it is then stored rotated, logical column c at
; physical column (c + o_r) mod 8, and o_r grows by the row's shift s_r every round. Two
; unrolled round bodies, for o = 0 and o = s (reading physical column c + m·s_r, m = 1, 2),
; run in turn; after every second round a pass rotates the rows back by 2·s_r (o = 0 again;
; rows with 2·s_r = 0 mod 8 skipped); after the tenth round (o = 2·s) the fold XORs the state
; into h through the same displacements. Constant-time as the other kernels: every address is
; an LDD/STD displacement from Y, the only data-dependent addresses are LPM look-ups.
; Registers: a_r in r<r> (r0-r7), MixBytes temporaries r8, r9, r19, r26, r27, round constant
; r18, Y = state, Z = tables; r20-r25 untouched (the callers keep h, m and counters there).

; MixBytes as FMIX (the 40-XOR program, 119 cycles), scheduled for 13 registers (outputs in
; any order, each stored with STD at its row's displacement d<r>; temporaries r8, r9, r19,
; r26, r27).
.macro SMIX d0, d1, d2, d3, d4, d5, d6, d7
    MIXHEAD r19, r26, r27
    eor r6, r3
    eor r2, r6
    HORNER r9, r26, r2
    std Y+\d4, r30
    mov r9, r5
    eor r9, r3
    eor r3, r26
    eor r7, r3
    HORNER r7, r6, r26
    std Y+\d7, r30
    mov r26, r0
    eor r26, r7
    eor r0, r27
    eor r7, r4
    eor r4, r5
    eor r5, r0
    HORNER r9, r3, r4
    std Y+\d6, r30
    HORNER r27, r7, r1
    std Y+\d5, r30
    HORNER r0, r4, r19
    std Y+\d3, r30
    HORNER r5, r1, r6
    std Y+\d2, r30
    HORNER r26, r2, r3
    std Y+\d1, r30
    HORNER r8, r19, r7
    std Y+\d0, r30
.endm

; One output column c of a round body with multiplier m (row r read at c + m·s_r).
.macro SCOL c, m, s0, s1, s2, s3, s4, s5, s6, s7, rcrow, rcs, tbl
    ldi r31, hi8(\tbl)
    GB \c, 0, \m*\s0, \rcrow, r18
    GB \c, 1, \m*\s1, \rcrow, r18
    GB \c, 2, \m*\s2, \rcrow, r18
    GB \c, 3, \m*\s3, \rcrow, r18
    GB \c, 4, \m*\s4, \rcrow, r18
    GB \c, 5, \m*\s5, \rcrow, r18
    GB \c, 6, \m*\s6, \rcrow, r18
    GB \c, 7, \m*\s7, \rcrow, r18
    subi r18, (256 - ((16*((\c+1+\rcs)%8) + 256 - 16*((\c+\rcs)%8)) & 255)) & 255
    ldi r31, hi8(sw_groestl_avr_mul2)
    SMIX (8*((\c+\m*\s0)%8)+7), (8*((\c+\m*\s1)%8)+6), (8*((\c+\m*\s2)%8)+5), (8*((\c+\m*\s3)%8)+4), (8*((\c+\m*\s4)%8)+3), (8*((\c+\m*\s5)%8)+2), (8*((\c+\m*\s6)%8)+1), (8*((\c+\m*\s7)%8))
.endm

.macro SBODY m, s0, s1, s2, s3, s4, s5, s6, s7, rcrow, rcs, tbl
    .irp c,0,1,2,3,4,5,6,7
    SCOL \c, \m, \s0, \s1, \s2, \s3, \s4, \s5, \s6, \s7, \rcrow, \rcs, \tbl
    .endr
.endm

; Row r, stored rotated by d columns (logical c at physical c + d), back to d = 0.
.macro SROT r, d
    .if (\d) % 8
    .irp j,0,1,2,3,4,5,6,7
    ldd r\j, Y+(8*\j+7-\r)
    .endr
    .irp j,0,1,2,3,4,5,6,7
    std Y+(8*((\j - (\d) % 8 + 8) % 8)+7-\r), r\j
    .endr
    .endif
.endm

; h ^= the state, whose row r is rotated by 2·s_r (X = h).
.macro SFB c, r, s
    ldd r0, Y+(8*((\c+2*\s)%8)+7-\r)
    ld r1, X
    eor r1, r0
    st X+, r1
.endm

.macro SFOLDCOL c, s0, s1, s2, s3, s4, s5, s6, s7
    SFB \c, 7, \s7
    SFB \c, 6, \s6
    SFB \c, 5, \s5
    SFB \c, 4, \s4
    SFB \c, 3, \s3
    SFB \c, 2, \s2
    SFB \c, 1, \s1
    SFB \c, 0, \s0
.endm

; h (r25:r24) ^= P(state at Y) (or Q): Y is left as it was, the state clobbered.
.macro SPERM s0, s1, s2, s3, s4, s5, s6, s7, rcrow, rcs, tbl
    ldi r18, (16*\rcs) & 255
1:
    SBODY 1, \s0, \s1, \s2, \s3, \s4, \s5, \s6, \s7, \rcrow, \rcs, \tbl
    inc r18
    SBODY 2, \s0, \s1, \s2, \s3, \s4, \s5, \s6, \s7, \rcrow, \rcs, \tbl
    inc r18
    cpi r18, (16*\rcs + 10) & 255
    brne 3f
    rjmp 2f
3:
    SROT 0, 2*\s0
    SROT 1, 2*\s1
    SROT 2, 2*\s2
    SROT 3, 2*\s3
    SROT 4, 2*\s4
    SROT 5, 2*\s5
    SROT 6, 2*\s6
    SROT 7, 2*\s7
    jmp 1b
2:
    movw r26, r24
    .irp c,0,1,2,3,4,5,6,7
    SFOLDCOL \c, \s0, \s1, \s2, \s3, \s4, \s5, \s6, \s7
    .endr
    ret
.endm

; The small entry points save r2-r9 and Y only (10 bytes).
.macro SAVE10
    .irp r,2,3,4,5,6,7,8,9,28,29
    push r\r
    .endr
.endm

.macro RESTORE10
    .irp r,29,28,9,8,7,6,5,4,3,2
    pop r\r
    .endr
    clr r1
    ret
.endm

;   block512(h, m, st): one compression with the state at st.
.macro SBLOCK1
    SAVE10
    XORIN 8, r20, r18
    movw r28, r20
    call sw_groestl_avr_k_small_p512
    COPY 8, r18
    call sw_groestl_avr_k_small_q512
    RESTORE10
.endm

;   p512(h, st): h ^= P(st).
.macro SPERMFN
    SAVE10
    movw r28, r22
    call sw_groestl_avr_k_small_p512
    RESTORE10
.endm

;   update512(uint8_t *h, const uint8_t *m, uint16_t len, uint8_t *st): the len / 64 whole
;   blocks at m compressed into h with st as the state, then the len % 64 bytes after them
;   copied to st (the engine's block buffer, whose state is then dead): the caller keeps
;   nothing live across the call. h, m and len stay in r24-r25, r22-r23 and r20-r21, which the
;   permutations do not touch; len counts down by 64 a block, its low 6 bits are the tail.
.macro SUPDATE
    SAVE10
    movw r28, r18
    rjmp 9f
7:
    XORIN 8, r28, r18
    movw r28, r26
    subi r28, 64
    sbci r29, 0
    call sw_groestl_avr_k_small_p512
    COPY 8, r18
    call sw_groestl_avr_k_small_q512
    subi r22, 0xC0
    sbci r23, 0xFF
    subi r20, 64
    sbci r21, 0
9:
    cpi r20, 64
    ldi r19, 0
    cpc r21, r19
    brlo 8f
    rjmp 7b
8:
    movw r30, r22
    movw r26, r28
    tst r20
    breq 6f
5:
    ld r0, Z+
    st X+, r0
    dec r20
    brne 5b
6:
    RESTORE10
.endm

;   pad512(uint8_t *h, uint8_t *st, const uint8_t *t, uint8_t lead): the last compression of a
;   message whose final block is padding only (m: `lead` in its first byte, the 8 bytes at t,
;   the little-endian u64 block count, big-endian in its last 8, zeros between: in the state
;   layout, byte 7 and bytes 56-63), generated in st twice, then the output transformation:
;   h ^= P(h ^ m) ^ Q(m); h ^= P(h). t and `lead` are kept in r22-r23 and r20.
.macro SPAD
    SAVE10
    movw r28, r22
    movw r22, r20
    mov r20, r18
    HCOPY
    ldd r0, Y+7
    eor r0, r20
    std Y+7, r0
    TXOR
    call sw_groestl_avr_k_small_p512
    movw r26, r28
    clr r0
    ldi r19, 64
1:
    st X+, r0
    dec r19
    brne 1b
    std Y+7, r20
    TXOR
    call sw_groestl_avr_k_small_q512
    HCOPY
    call sw_groestl_avr_k_small_p512
    RESTORE10
.endm

; ---------------------------------------------------------------------------------------
; Leaf helpers of the mode on AVR (engine.rs): no saved registers and no frame, so that a call
; goes 2 bytes deeper (its return address), where the compiled code kept 8 to 18 registers of
; 64-bit arithmetic (saved in its frame, the one around the kernels: the peak RAM).

;   add(uint64_t *x, uint16_t n): *x += n (the block count).
.macro ADDFN
    movw r30, r24
    ld r0, Z
    add r0, r22
    st Z+, r0
    ld r0, Z
    adc r0, r23
    st Z+, r0
    ldi r18, 6
1:
    ld r0, Z
    adc r0, r1
    st Z+, r0
    dec r18
    brne 1b
    ret
.endm

;   digest(uint8_t *out, const uint8_t *h, uint8_t first, uint8_t len): out[i] = h[(first + i)
;   ^ 7], i < len (first + len <= 256): the bytes first.. of the big-endian serialisation of
;   the little-endian u64 columns at h. len >= 1.
.macro DIGESTFN
    movw r26, r24
1:
    mov r30, r20
    ldi r19, 7
    eor r30, r19
    ldi r31, 0
    add r30, r22
    adc r31, r23
    ld r0, Z
    st X+, r0
    inc r20
    dec r18
    brne 1b
    ret
.endm

    .section .text.sw_groestl_avr_add,"ax",@progbits
    GFUNC sw_groestl_avr_add, ADDFN
    .section .text.sw_groestl_avr_digest,"ax",@progbits
    GFUNC sw_groestl_avr_digest, DIGESTFN

; Fast Grøstl-224/256 (state buffer: 128 bytes, A and B).
    .section .text.sw_groestl_avr_fast512,"ax",@progbits
    FUNC sw_groestl_avr_k_fast_p512, FPERM512 0, 1, 2, 3, 4, 5, 6, 7, 0, 0, sw_groestl_avr_sbox_p
    FUNC sw_groestl_avr_k_fast_q512, FPERM512 1, 3, 5, 7, 0, 2, 4, 6, 7, 6, sw_groestl_avr_sbox_q
    GFUNC sw_groestl_avr_fast_block512, FBLOCK sw_groestl_avr_k_fast_p512, sw_groestl_avr_k_fast_q512
    GFUNC sw_groestl_avr_fast_p512, FPERM sw_groestl_avr_k_fast_p512

; Small Grøstl-224/256 (state buffer: 64 bytes).
    .section .text.sw_groestl_avr_small512,"ax",@progbits
    FUNC sw_groestl_avr_k_small_p512, SPERM 0, 1, 2, 3, 4, 5, 6, 7, 0, 0, sw_groestl_avr_sbox_p
    FUNC sw_groestl_avr_k_small_q512, SPERM 1, 3, 5, 7, 0, 2, 4, 6, 7, 6, sw_groestl_avr_sbox_q
    GFUNC sw_groestl_avr_small_block512, SBLOCK1
    GFUNC sw_groestl_avr_small_p512, SPERMFN
    GFUNC sw_groestl_avr_small_update512, SUPDATE
    GFUNC sw_groestl_avr_small_pad512, SPAD

; Grøstl-384/512 (state buffer: 128 bytes), in place in both builds.
    .section .text.sw_groestl_avr_1024,"ax",@progbits
    FUNC sw_groestl_avr_k_ip1024, IPERM 16, 14, 0, 1, 2, 3, 4, 5, 6, 11, 0, 0, sw_groestl_avr_sbox_p
    FUNC sw_groestl_avr_k_iq1024, IPERM 16, 14, 1, 3, 5, 11, 0, 2, 4, 6, 7, 6, sw_groestl_avr_sbox_q
    GFUNC sw_groestl_avr_block1024, IBLOCK 16, sw_groestl_avr_k_ip1024, sw_groestl_avr_k_iq1024
    GFUNC sw_groestl_avr_p1024, IPERMFN sw_groestl_avr_k_ip1024
