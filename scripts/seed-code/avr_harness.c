/* ATmega1284P firmware around one SUPERCOP Grøstl-256 implementation (issue 34), built and run by
 * scripts/seed-code/embedded.sh (mode avr) under simavr -m atmega1284p -f 16000000. The
 * measurement is m0_avr_bench.h's; this file is the platform, as embedded/firmware's
 * platform/avr.rs: output on USART0 (simavr prints it), strings and KAT tables in flash, exact
 * cycles from Timer1 at prescaler 1 with its overflow interrupt counting the high bits, and the
 * end by sleeping with interrupts off (simavr stops). Nothing of SUPERCOP is in this file. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <stddef.h>
#include <stdint.h>

#include "avr_kat.h" /* SEED_HASH, SEED_NAME, KAT_N, kat_len[], kat_md[][32] in PROGMEM (generated) */

typedef uint16_t addr_t;
#define ROM_U16(p) pgm_read_word(p)
#define ROM_U8(p) pgm_read_byte(p)
#define read_sp() ((addr_t)SP)

static void put_char(char c) {
    UCSR0B = _BV(TXEN0);
    while (!(UCSR0A & _BV(UDRE0))) {
    }
    UDR0 = (uint8_t)c;
}

static void out_P(const char *s) {
    char c;
    while ((c = (char)pgm_read_byte(s++))) put_char(c);
}
#define OUT(s) out_P(PSTR(s))

static void __attribute__((noreturn)) finish(int pass) {
    (void)pass; /* the RESULT line is the verdict */
    for (;;) __asm__ volatile("cli\n\tsleep");
}

/* Timer1 overflows since cycles_start. */
static volatile uint16_t overflows;

ISR(TIMER1_OVF_vect) { overflows++; }

/* Timer1 from 0 at prescaler 1, its overflow interrupt on (platform/avr.rs's cycles_start). */
static void __attribute__((noinline)) cycles_start(void) {
    cli();
    TCCR1B = 0;
    TCCR1A = 0;
    TCNT1H = 0;
    TCNT1L = 0;
    TIFR1 = 1;
    overflows = 0;
    TIMSK1 = 1;
    TCCR1B = 1;
    sei();
}

/* Cycles since cycles_start; an overflow pending but not yet serviced counts if the read value
 * is from after it (platform/avr.rs's cycles_stop). */
static uint32_t __attribute__((noinline)) cycles_stop(void) {
    cli();
    uint8_t lo = TCNT1L; /* latches TCNT1H */
    uint8_t hi = TCNT1H;
    uint16_t n = overflows;
    if ((TIFR1 & 1) && hi < 0x80) n++;
    TCCR1B = 0;
    return ((uint32_t)n << 16) | ((uint32_t)hi << 8) | lo;
}

#include "m0_avr_bench.h"
