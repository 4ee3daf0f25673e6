// SPDX-License-Identifier: MIT
/* stow/pmr.hpp - the standard library's containers over stow: memory resources
 * (std::pmr) over an arena and over a heap, and an allocator for containers
 * that take an allocator type. Needs C++17 and the library's <memory_resource>
 * (a hosted toolchain, or arm-none-eabi with Debian's
 * libstdc++-arm-none-eabi-newlib); stow.hpp itself needs neither.
 *
 *     #include "stow/pmr.hpp"
 *
 *     STOW_CXX_DEFINE(frame_memory, stow::arena<256 * 1024>);
 *
 *     void frame() {
 *         stow::arena_scope frame(frame_memory);        // the mark...
 *         stow::arena_resource in_frame(frame_memory);
 *         std::pmr::vector<Hit> hits(&in_frame);         // grows in the arena
 *         std::pmr::unordered_map<uint32_t, std::pmr::string> names(&in_frame);
 *         ...
 *     }                                                  // ...and the rewind: all of it back
 *
 *     stow::heap<64 * 1024> level_heap;
 *     std::vector<Path, stow::allocator<Path, stow::heap<64 * 1024>>> paths(level_heap);
 *
 * stow::arena_resource      a std::pmr::memory_resource over an arena (a
 *                           stow::arena, a STOW_CXX_DEFINE'd one, or a C
 *                           stow_arena_t): allocate is stow_arena_alloc, O(1);
 *                           deallocate does nothing (the bytes come back when
 *                           the arena is rewound or reset), as
 *                           std::pmr::monotonic_buffer_resource, but with no
 *                           upstream: the arena is all there is.
 * stow::heap_resource       the same over a heap (stow::heap or stow_heap_t):
 *                           allocate is stow_heap_alloc (stow_heap_alloc_aligned
 *                           for an alignment above STOW_HEAP_ALIGN), deallocate
 *                           stow_heap_free, both O(1).
 * stow::allocator<T, R>     an allocator (the C++11 requirements: allocate,
 *                           deallocate, rebinding, ==) over R, one of
 *                           stow::arena<B>, stow::heap<B> (either storage), or
 *                           the C stow_arena_t, stow_heap_t: for std::vector and
 *                           the other containers that take an allocator type.
 *                           It holds a pointer to R, which must outlive it; two
 *                           compare equal when they use the same R. Over an arena
 *                           deallocate does nothing, as above.
 *
 * Alignment: each request gets the alignment it asks for (an arena aligns any
 * power of two; a heap gives STOW_HEAP_ALIGN, or asks stow_heap_alloc_aligned).
 *
 * Failure: memory_resource::allocate and Allocator::allocate may not return
 * nullptr. When the arena or heap has no room (counted as a fail in its stats),
 * the resources ask std::pmr::null_memory_resource(), which throws
 * std::bad_alloc, and the allocator throws std::bad_alloc: the container's
 * operation fails as it would with the default allocator. With exceptions off
 * (-fno-exceptions) there is nothing to throw: the allocator reports through
 * the assert hook (check level >= 1) and traps; the resources end the program
 * as the standard library ends it (null_memory_resource's throw with no
 * handler). Size the arena or heap so that it does not run out.
 *
 * Rewinding an arena under live containers: a container's destructor gives its
 * memory back through deallocate, which does nothing over an arena, so a
 * container may outlive the bytes it used only if it is never touched again;
 * declare the containers inside the arena_scope, as above, so that they are
 * destroyed before the rewind.
 */
#ifndef STOW_PMR_HPP
#define STOW_PMR_HPP

#include "stow.hpp"

#if !defined(__has_include) || !__has_include(<memory_resource>)
#error "stow/pmr.hpp needs <memory_resource> (C++17, a hosted standard library; for arm-none-eabi on Debian: libstdc++-arm-none-eabi-newlib)"
#endif
#include <memory_resource>
#include <new>

/* Header-only: a resource's vtable is emitted wherever it is used (the linker
 * keeps one), which clang -Weverything reports. */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wweak-vtables"
#endif

namespace stow {

namespace detail {

/* How the resources and the allocator get and give back bytes, by type: the C
 * containers, and the C++ ones through them. */
template <class R> struct allocator_resource;
template <> struct allocator_resource<stow_arena_t> {
    static stow_arena_t *native(stow_arena_t &a_) noexcept { return &a_; }
    static void *allocate(stow_arena_t *a_, size_t bytes_, size_t align_) noexcept
    {
        return stow_arena_alloc(a_, bytes_, align_);
    }
    static void deallocate(stow_arena_t *, void *) noexcept {}
};
template <> struct allocator_resource<stow_heap_t> {
    static stow_heap_t *native(stow_heap_t &h_) noexcept { return &h_; }
    static void *allocate(stow_heap_t *h_, size_t bytes_, size_t align_) noexcept
    {
        return align_ <= STOW_HEAP_ALIGN ? stow_heap_alloc(h_, bytes_) : stow_heap_alloc_aligned(h_, bytes_, align_);
    }
    static void deallocate(stow_heap_t *h_, void *p_) noexcept { stow_heap_free(h_, p_); }
};
template <size_t B, class W> struct allocator_resource<arena<B, W>> : allocator_resource<stow_arena_t> {
    using allocator_resource<stow_arena_t>::native;
    static stow_arena_t *native(arena<B, W> &a_) noexcept { return &a_.native(); }
};
template <size_t B, class W> struct allocator_resource<heap<B, W>> : allocator_resource<stow_heap_t> {
    using allocator_resource<stow_heap_t>::native;
    static stow_heap_t *native(heap<B, W> &h_) noexcept { return &h_.native(); }
};

} // namespace detail

/* std::pmr::memory_resource over an arena (Native: stow_arena_t) or a heap
 * (stow_heap_t), made from the C container or a C++ one. */
template <class Native> class basic_resource final : public std::pmr::memory_resource {
    using ops = detail::allocator_resource<Native>;

  public:
    explicit basic_resource(Native &c_) noexcept : native_(&c_) {}
    template <class C> explicit basic_resource(C &c_) noexcept : native_(&c_.native()) {}

    Native &native() const noexcept { return *native_; }

  private:
    void *do_allocate(size_t bytes_, size_t align_) override
    {
        void *p_ = ops::allocate(native_, bytes_ != 0u ? bytes_ : 1u, align_);
        return p_ != nullptr ? p_ : std::pmr::null_memory_resource()->allocate(bytes_, align_);
    }
    void do_deallocate(void *p_, size_t, size_t) override { ops::deallocate(native_, p_); }
    bool do_is_equal(const std::pmr::memory_resource &other_) const noexcept override { return this == &other_; }

    Native *native_;
};
using arena_resource = basic_resource<stow_arena_t>;
using heap_resource = basic_resource<stow_heap_t>;

/* An allocator of T over the resource R (see above). */
template <class T, class R> class allocator {
    using resource = detail::allocator_resource<R>;
    using native_type = typename detail::remove_ref<decltype(*resource::native(detail::declval<R &>()))>::type;

  public:
    using value_type = T;

    explicit allocator(R &r_) noexcept : native_(resource::native(r_)) {}
    template <class U> allocator(const allocator<U, R> &other_) noexcept : native_(other_.native()) {}

    /* n T's, aligned for T; std::bad_alloc when n * sizeof(T) overflows or there
     * is no room. */
    T *allocate(size_t n_)
    {
        void *p_ = n_ <= SIZE_MAX / sizeof(T) ? resource::allocate(native_, n_ * sizeof(T), alignof(T)) : nullptr;
        if (p_ == nullptr) {
            out_of_memory();
        }
        return static_cast<T *>(p_);
    }
    void deallocate(T *p_, size_t) noexcept { resource::deallocate(native_, p_); }

    native_type *native() const noexcept { return native_; }

    friend bool operator==(const allocator &a_, const allocator &b_) noexcept { return a_.native_ == b_.native_; }
    friend bool operator!=(const allocator &a_, const allocator &b_) noexcept { return a_.native_ != b_.native_; }

  private:
    [[noreturn]] static void out_of_memory()
    {
#if STOW_HPP_EXCEPTIONS
        throw std::bad_alloc();
#else
#if STOW_CHECK_LEVEL >= 1
        stow_port_assert_failed(STOW_CHECK_TEXT("stow::allocator: out of memory"), STOW__FILE, __LINE__);
#endif
        __builtin_trap();
#endif
    }

    native_type *native_;
};

} // namespace stow

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif /* STOW_PMR_HPP */
