#include "stow/pool.h"
#include "proof.h"
static uint32_t bump, nfree, free_stack[4];
static uint32_t calls;
static bool model_is_free(uint32_t j)
{
    for (uint32_t i = 0u; i < nfree; i++) {
        if (free_stack[i] == j) {
            return true;
        }
    }
    return false;
}
static uint32_t model_shape(void)
{
    uint32_t shape = bump;
    for (uint32_t i = 0u; i < nfree; i++) {
        shape = shape * 8u + free_stack[i] + 1u;
    }
    return shape;
}
int main(void)
{
    static stow_pool_t p;
    unsigned char buf[200] __attribute__((aligned(64)));
    uint32_t shape, j;
    void *got;
    if (!stow_pool_init(&p, buf, sizeof buf, 12u, 4u, 3u)) {
        return 0;
    }
    while (ANY_BOOL()) {
        Frama_C_show_each_head(bump, nfree, free_stack[0], free_stack[1], free_stack[2]);
        switch (ANY(0u, 1u)) {
        case 0u:
            got = stow_pool_alloc(&p);
            if (nfree > 0u) nfree--; else if (bump < 3u) bump++;
            break;
        default:
            j = ANY(0u, 3u);
            //@ split j;
            if (j < bump && !model_is_free(j)) {
                stow_pool_free(&p, buf + j * 12u);
                free_stack[nfree] = j;
                nfree++;
            }
            //@ merge j;
            break;
        }
        shape = model_shape();
        //@ split shape;
        calls++;
    }
    return 0;
}
