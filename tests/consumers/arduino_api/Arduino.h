/* SPDX-License-Identifier: MIT */
/* Declarations of the parts of the Arduino API that examples/platformio/ uses, with
 * the Arduino cores' signatures, so that tests/consumers/check_manifests.py can
 * compile the PlatformIO examples where no Arduino core is installed (a C++
 * header, as Arduino's is). Written for this check; not Arduino's. */
#ifndef STOW_TEST_ARDUINO_H
#define STOW_TEST_ARDUINO_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

class HardwareSerial {
public:
    void begin(unsigned long baud);
    size_t write(const uint8_t *buffer, size_t size);
    size_t println(const char *text);
    explicit operator bool();
};
extern HardwareSerial Serial;

unsigned long millis(void);
void delay(unsigned long ms);
int analogRead(uint8_t pin);
static const uint8_t A0 = 14;

void setup(void);
void loop(void);
#endif
