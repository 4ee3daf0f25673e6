/* SPDX-License-Identifier: MIT */
/* test_lwip.c - Debian's lwIP (liblwip, 2.1) doing real work, for a run on
 * libstow_malloc.so.
 *
 * Debian builds lwIP with MEM_LIBC_MALLOC and MEMP_MEM_MALLOC: its heap and all
 * its pools (pbufs, PCBs, messages, timeouts) come from the C library's malloc,
 * and its sys layer makes its semaphores, mailboxes and threads with malloc too.
 * So adapters/lwip/check.sh runs this program plainly and with
 * LD_PRELOAD=libstow_malloc.so, compares the outputs, and requires the heap's
 * check to pass at exit.
 *
 * The work: tcpip_init (lwIP's thread), a network interface of our own with
 * address 10.0.0.1, then, holding the core lock: pbufs of every type and size,
 * chained, written and read back; mem_malloc / mem_calloc / mem_free; 300 UDP
 * datagrams sent to the interface's own address, which lwIP loops back
 * (LWIP_NETIF_LOOPBACK) through its thread to a bound UDP PCB that checks each
 * one. Ends with "N passed, N failed".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lwip/init.h"
#include "lwip/ip_addr.h"
#include "lwip/mem.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/sys.h"
#include "lwip/tcpip.h"
#include "lwip/udp.h"

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

static sys_sem_t ready;

static void tcpip_ready(void *arg)
{
    (void)arg;
    sys_sem_signal(&ready);
}

/* Frames to anywhere but our own address go nowhere. */
static err_t drop_output(struct netif *nif, struct pbuf *p, const ip4_addr_t *to)
{
    (void)nif;
    (void)p;
    (void)to;
    return ERR_OK;
}

static err_t nif_init(struct netif *nif)
{
    nif->name[0] = 's';
    nif->name[1] = 't';
    nif->mtu = 1500;
    nif->output = drop_output;
    nif->flags = NETIF_FLAG_UP | NETIF_FLAG_LINK_UP;
    return ERR_OK;
}

static uint8_t pattern(unsigned n, unsigned i) { return (uint8_t)(n * 31u + i * 7u); }

/* Lengths: 1, 10, 37, 118, 361, 1090 for PBUF_RAM; PBUF_POOL pbufs stay below
 * 500 bytes, because Debian's liblwip 2.1.3 gives a pool pbuf the length asked
 * for (up to its PBUF_POOL_BUFSIZE of 1536) but only about 590 bytes of storage
 * (valgrind shows pbuf_take writing past it with glibc's malloc as well). */
static u16_t next_len(u16_t len) { return (u16_t)(len * 3u + 7u); }
static u16_t max_len(unsigned t) { return t == 0u ? 3000u : 500u; }

static void pbufs(void)
{
    static const pbuf_type types[] = {PBUF_RAM, PBUF_POOL};
    bool ok = true;
    unsigned made = 0;
    for (unsigned round = 0; round < 50u && ok; round++) {
        struct pbuf *chain = NULL;
        for (unsigned t = 0; t < 2u; t++) {
            for (u16_t len = 1; len < max_len(t); len = next_len(len)) {
                struct pbuf *p = pbuf_alloc(PBUF_RAW, len, types[t]);
                if (p == NULL) {
                    ok = false;
                    break;
                }
                made++;
                uint8_t data[3000];
                for (unsigned i = 0; i < len; i++) {
                    data[i] = pattern(len, i);
                }
                ok = ok && pbuf_take(p, data, len) == ERR_OK;
                if (chain == NULL) {
                    chain = p;
                } else {
                    pbuf_cat(chain, p);
                }
            }
        }
        /* read the chain back */
        unsigned at = 0;
        for (unsigned t = 0; t < 2u && ok; t++) {
            for (u16_t len = 1; len < max_len(t); len = next_len(len)) {
                uint8_t data[3000];
                ok = ok && pbuf_copy_partial(chain, data, len, (u16_t)at) == len;
                for (unsigned i = 0; ok && i < len; i++) {
                    ok = data[i] == pattern(len, i);
                }
                at += len;
            }
        }
        ok = ok && chain->tot_len == at;
        pbuf_free(chain);
    }
    printf("pbufs: %u made, chained, written and read back\n", made);
    expect(ok, "pbuf_alloc (PBUF_RAM and PBUF_POOL), pbuf_take, pbuf_cat, pbuf_copy_partial, pbuf_free");

    ok = true;
    void *blocks[64];
    for (unsigned i = 0; i < 64u; i++) {
        blocks[i] = i % 2u ? mem_malloc((mem_size_t)(16u + i * 40u)) : mem_calloc((mem_size_t)(i + 1u), 24u);
        ok = ok && blocks[i] != NULL;
    }
    for (unsigned i = 0; i < 64u; i++) {
        mem_free(blocks[63u - i]);
    }
    expect(ok, "mem_malloc, mem_calloc, mem_free");
}

static unsigned received;
static unsigned received_bytes;
static unsigned bad;
static sys_sem_t all_in;

#define DATAGRAMS 300u

static void udp_in(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *from, u16_t port)
{
    (void)arg;
    (void)pcb;
    (void)from;
    (void)port;
    uint8_t data[1500];
    u16_t len = pbuf_copy_partial(p, data, p->tot_len, 0);
    for (unsigned i = 0; i < len; i++) {
        bad += data[i] != pattern(len, i);
    }
    received++;
    received_bytes += len;
    pbuf_free(p);
    if (received == DATAGRAMS) {
        sys_sem_signal(&all_in);
    }
}

int main(void)
{
    sys_sem_new(&ready, 0);
    sys_sem_new(&all_in, 0);
    tcpip_init(tcpip_ready, NULL);
    sys_arch_sem_wait(&ready, 0);
    printf("lwIP %s, its thread running\n", LWIP_VERSION_STRING);

    static struct netif nif;
    ip4_addr_t addr, mask, gw;
    IP4_ADDR(&addr, 10, 0, 0, 1);
    IP4_ADDR(&mask, 255, 255, 255, 0);
    IP4_ADDR(&gw, 10, 0, 0, 254);
    LOCK_TCPIP_CORE();
    bool added = netif_add(&nif, &addr, &mask, &gw, NULL, nif_init, tcpip_input) != NULL;
    netif_set_up(&nif);
    netif_set_link_up(&nif);
    pbufs();

    struct udp_pcb *rx = udp_new();
    struct udp_pcb *tx = udp_new();
    bool bound = rx != NULL && tx != NULL && udp_bind(rx, IP_ADDR_ANY, 7000) == ERR_OK;
    if (bound) {
        udp_recv(rx, udp_in, NULL);
    }
    expect(added && bound, "netif_add, udp_new, udp_bind");
    ip_addr_t to;
    ip_addr_copy_from_ip4(to, addr);
    unsigned sent = 0, sent_bytes = 0;
    for (unsigned n = 0; bound && n < DATAGRAMS; n++) {
        u16_t len = (u16_t)(1u + (n * 97u) % 1400u);
        struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, len, PBUF_RAM);
        if (p == NULL) {
            break;
        }
        for (unsigned i = 0; i < len; i++) {
            ((uint8_t *)p->payload)[i] = pattern(len, i);
        }
        if (udp_sendto(tx, p, &to, 7000) == ERR_OK) {
            sent++;
            sent_bytes += len;
        }
        pbuf_free(p);
        if (n % 20u == 19u) { /* let lwIP's thread deliver what is looped back */
            UNLOCK_TCPIP_CORE();
            sys_msleep(1);
            LOCK_TCPIP_CORE();
        }
    }
    UNLOCK_TCPIP_CORE();
    bool all = sent == DATAGRAMS && sys_arch_sem_wait(&all_in, 10000) != SYS_ARCH_TIMEOUT;
    LOCK_TCPIP_CORE();
    printf("udp loopback: %u datagrams, %u bytes sent; %u datagrams, %u bytes received\n", sent, sent_bytes,
           received, received_bytes);
    expect(all && received_bytes == sent_bytes && bad == 0u,
           "UDP to our own address, looped back through lwIP's thread, every byte intact");
    udp_remove(rx);
    udp_remove(tx);
    netif_remove(&nif);
    UNLOCK_TCPIP_CORE();
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0u ? 0 : 1;
}
