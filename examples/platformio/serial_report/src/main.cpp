// SPDX-License-Identifier: MIT
// serial_report - stow on a real board under PlatformIO and Arduino.
//
// A sensor subsystem keeps its samples in a pool, a text subsystem formats a line
// per round in an arena that is reset every round. Each round prints one line and,
// every fifth round, stow's memory report, on the serial port at 115200 baud:
// stow_port_write() (weak in the Cortex-M port, which discards the text) is
// defined here to write to Serial.
#include <Arduino.h>

#include "stow/stow.h"

namespace {

struct sample {
    uint32_t at_ms;
    int32_t value;
};

}  // namespace

STOW_POOL_DEFINE_IN(sensor, samples, struct sample, 32);
STOW_ARENA_DEFINE_IN(text, line_arena, 256);
STOW_BUDGET(sensor, 1024)
STOW_BUDGET(text, 512)

extern "C" void stow_port_write(const char *text, size_t len)
{
    Serial.write(reinterpret_cast<const uint8_t *>(text), len);
}

static uint32_t round_number;

void setup()
{
    Serial.begin(115200);
    const uint32_t start = millis();
    while (!Serial && millis() - start < 3000u) {
        // Boards with native USB: wait a little for the monitor to open.
    }
    Serial.println("serial_report: stow " STOW_VERSION_STRING);
}

void loop()
{
    // A burst of samples, kept until the round ends.
    struct sample *kept[8];
    size_t n = 0;
    for (; n < 8; n++) {
        struct sample *s = STOW_POOL_NEW(&samples, struct sample);
        if (s == nullptr) {
            break;
        }
        s->at_ms = millis();
        s->value = static_cast<int32_t>(analogRead(A0));
        kept[n] = s;
    }
    char *line = STOW_ARENA_NEW_ARRAY(&line_arena, char, 64);
    if (line != nullptr) {
        snprintf(line, 64, "round %lu: %u samples, first %ld", static_cast<unsigned long>(round_number),
                 static_cast<unsigned>(n), n > 0 ? static_cast<long>(kept[0]->value) : -1L);
        Serial.println(line);
    }
    for (size_t i = 0; i < n; i++) {
        stow_pool_free(&samples, kept[i]);
    }
    stow_arena_reset(&line_arena);
    if (round_number % 5u == 0u) {
        stow_report();
    }
    round_number++;
    delay(1000);
}
