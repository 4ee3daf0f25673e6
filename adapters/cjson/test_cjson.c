/* SPDX-License-Identifier: MIT */
/* test_cjson.c - Debian's cJSON on a stow heap, through stow_cjson.h.
 *
 * Generates a JSON document of a few hundred KB (objects, arrays, strings with
 * escapes, numbers, nesting) in a buffer of its own, then, with every cJSON
 * allocation on the heap: parses it, reads values back, adds and removes items,
 * prints it (formatted and not), parses the printed text again and compares the
 * trees. The C library's malloc must not be used meanwhile (mallinfo2's count of
 * bytes in use stays the same), and after cJSON_Delete and cJSON_free of the
 * printed strings the heap's used is 0 and its check passes. Then the same parse
 * and print again with hooks of the test's own that count requested bytes (a
 * pointer-to-size table), for the fragmentation figures. Prints the heap's peak
 * and those figures, and ends with "N passed, N failed".
 */
#define _GNU_SOURCE /* mallinfo2 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stow_cjson.h"

STOW_HEAP_DEFINE(json_heap, 16u << 20);

static unsigned passed;
static unsigned failed;

static void expect(bool ok, const char *what)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

/* The document: an object with a list of records. */
static char *generate(size_t records, size_t *len)
{
    size_t cap = records * 256u + 64u;
    char *text = malloc(cap);
    if (text == NULL) {
        return NULL;
    }
    size_t n = (size_t)snprintf(text, cap, "{\"name\":\"stow \\\"heap\\\" test\\n\",\"count\":%zu,\"records\":[",
                                records);
    for (size_t i = 0; i < records && n < cap; i++) {
        n += (size_t)snprintf(text + n, cap - n,
                              "%s{\"id\":%zu,\"label\":\"record-%zu-\\u00e9\\t%.*s\",\"value\":%zu.%02zu,"
                              "\"ok\":%s,\"none\":null,\"tags\":[%zu,%zu,\"t%zu\"],\"child\":{\"depth\":%zu}}",
                              i == 0 ? "" : ",", i, i, (int)(i % 40u), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN",
                              i * 3u, i % 100u, i % 3u == 0u ? "true" : "false", i % 7u, i % 11u, i, i % 5u);
    }
    n += (size_t)snprintf(text + n, cap - n, "]}");
    *len = n;
    return text;
}

static size_t libc_in_use(void) { return mallinfo2().uordblks; }

/* ---- metering: requested bytes by pointer (open addressing, never full here) ---- */
#define METER_SLOTS (1u << 18)
static struct {
    void *p;
    size_t size;
} meter[METER_SLOTS];
static size_t live_requested;
static size_t peak_requested;
static size_t footprint;
/* The storage the heap has in use: its blocks up to the free one at their end
 * (the top) and its pages of slots (the heap's own fields, as lib/src/heap.c
 * keeps them). */
static size_t in_use(const stow_heap_t *h)
{
    const unsigned char *end = h->top != NULL ? h->top : h->region.limit;
    return (size_t)(end - h->region.first) + (size_t)(h->region.top - h->zone_lo);
}

static size_t slot_of(const void *p)
{
    size_t i = ((size_t)(uintptr_t)p >> 4) * 0x9E3779B97F4A7C15u >> 40;
    return i & (METER_SLOTS - 1u);
}

static void *metered_malloc(size_t size)
{
    void *p = stow_heap_alloc(&json_heap, size);
    if (p != NULL) {
        size_t i = slot_of(p);
        while (meter[i].p != NULL) {
            i = (i + 1u) & (METER_SLOTS - 1u);
        }
        meter[i].p = p;
        meter[i].size = size;
        live_requested += size;
        peak_requested = live_requested > peak_requested ? live_requested : peak_requested;
        size_t end = in_use(&json_heap);
        footprint = end > footprint ? end : footprint;
    }
    return p;
}

static void metered_free(void *p)
{
    if (p == NULL) {
        return;
    }
    size_t i = slot_of(p);
    while (meter[i].p != p) {
        i = (i + 1u) & (METER_SLOTS - 1u);
    }
    live_requested -= meter[i].size;
    /* backward-shift deletion keeps every probe chain whole */
    size_t hole = i;
    for (size_t j = (i + 1u) & (METER_SLOTS - 1u); meter[j].p != NULL; j = (j + 1u) & (METER_SLOTS - 1u)) {
        size_t home = slot_of(meter[j].p);
        if (((j - home) & (METER_SLOTS - 1u)) >= ((j - hole) & (METER_SLOTS - 1u))) {
            meter[hole] = meter[j];
            hole = j;
        }
    }
    meter[hole].p = NULL;
    stow_heap_free(&json_heap, p);
}

/* Parse, print, parse the print, delete all: the metered run. */
static void metered_run(const char *text, size_t len)
{
    cJSON_Hooks hooks = {metered_malloc, metered_free};
    cJSON_InitHooks(&hooks);
    cJSON *doc = cJSON_ParseWithLength(text, len);
    char *printed = cJSON_Print(doc);
    cJSON *again = cJSON_Parse(printed);
    bool same = cJSON_Compare(doc, again, 1);
    cJSON_Delete(again);
    cJSON_free(printed);
    cJSON_Delete(doc);
    stow_stats_t st;
    stow_heap_stats(&json_heap, &st);
    expect(same && live_requested == 0u && st.used == 0u && stow_heap_check(&json_heap),
           "the metered run: same tree, nothing left");
    printf("cjson on stow: peak requested %zu bytes, footprint %zu; footprint / requested %.2f\n",
           peak_requested, footprint, (double)footprint / (double)peak_requested);
}

int main(void)
{
    size_t len = 0;
    char *text = generate(2500u, &len);
    expect(text != NULL && len > 200u * 1024u, "a generated document of a few hundred KB");
    if (text == NULL) {
        return 1;
    }
    stow_cjson_use(&json_heap);
    size_t libc_before = libc_in_use();

    cJSON *doc = cJSON_ParseWithLength(text, len);
    expect(doc != NULL, "cJSON_Parse");
    if (doc == NULL) {
        return 1;
    }
    cJSON *records = cJSON_GetObjectItemCaseSensitive(doc, "records");
    cJSON *r7 = cJSON_GetArrayItem(records, 7);
    expect(cJSON_GetArraySize(records) == 2500 && cJSON_GetObjectItem(r7, "value")->valuedouble == 21.07 &&
               strcmp(cJSON_GetObjectItem(r7, "label")->valuestring, "record-7-\xc3\xa9\tabcdefg") == 0,
           "values read back (numbers, escapes, UTF-8)");
    stow_stats_t st;
    stow_heap_stats(&json_heap, &st);
    expect(st.used > len, "the tree lives on the heap");

    for (int i = 0; i < 500; i++) { /* edits: add and drop items */
        cJSON_AddItemToArray(records, cJSON_CreateString("added"));
        cJSON_DeleteItemFromArray(records, 0);
    }
    cJSON_AddNumberToObject(doc, "edited", 500);

    char *printed = cJSON_Print(doc);
    char *compact = cJSON_PrintUnformatted(doc);
    expect(printed != NULL && compact != NULL && strlen(printed) > strlen(compact), "cJSON_Print, formatted and not");
    cJSON *again = cJSON_Parse(printed);
    expect(again != NULL && cJSON_Compare(doc, again, 1), "the printed text parses to the same tree");
    expect(libc_in_use() == libc_before, "no byte from the C library's malloc meanwhile");

    stow_heap_stats(&json_heap, &st);
    size_t peak = st.peak;
    size_t printed_len = strlen(printed);
    cJSON_Delete(again);
    cJSON_Delete(doc);
    cJSON_free(printed);
    cJSON_free(compact);
    stow_heap_stats(&json_heap, &st);
    expect(st.used == 0u, "after cJSON_Delete and freeing the printed strings, used is 0");
    expect(stow_heap_check(&json_heap) && st.fails == 0u, "stow_heap_check passes, nothing refused");
    printf("cjson on stow: document %zu bytes, printed %zu; heap peak %zu bytes (blocks, headers included)\n",
           len, printed_len, peak);
    metered_run(text, len);
    stow_cjson_use(NULL);
    free(text);
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0u ? 0 : 1;
}
