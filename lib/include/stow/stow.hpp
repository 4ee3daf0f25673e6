// SPDX-License-Identifier: MIT
/* stow/stow.hpp - the C++ layer: typed containers that construct and destroy
 * their items, typed handles, RAII arena scopes. Header-only, over the C library.
 *
 *     #include "stow/stow.hpp"
 *
 *     struct Entity;
 *     using Entities = stow::slotmap<Entity, 256>;
 *     struct Entity {
 *         float x = 0, vx = 1;
 *         stow::handle<Entities> target;          // null until set; goes stale
 *     };
 *
 *     constinit Entities entities;                // C++20 proves it: no code runs
 *     Entities::handle_type a = entities.emplace(); // constructed in place: x 0, vx 1
 *     auto b = entities.emplace();
 *     entities.get(b)->target = a;
 *     for (Entity &e : entities) e.x += e.vx;     // packed: no holes, no flags
 *     entities.mark_dead(a);                      // still readable until refresh
 *     entities.refresh([](Entity &dying) { log(dying); });   // then destroyed
 *     if (Entity *t = entities.get(entities.get(b)->target)) { ... }   // nullptr: gone
 *
 *     for (auto [h, e] : entities.items()) { ... } // each item with its handle
 *
 *     STOW_CXX_DEFINE(scratch, stow::arena<16 * 1024>);   // a global: RAM only (.bss)
 *     {
 *         stow::arena_scope frame(scratch);       // a mark...
 *         Hit *hits = frame.make_array<Hit>(n);   // zeroed, n * sizeof(Hit) checked
 *     }                                           // ...and the rewind to it
 *
 * The containers (T the item type, N the capacity):
 *
 *   stow::pool<T, N>       fixed-size blocks; emplace() -> T*, destroy(T*)
 *   stow::genpool<T, N>    items that never move, generational handles
 *   stow::slotmap<T, N>    packed items behind handles; mark_dead() and refresh()
 *   stow::packed<T, N>     packed items, swap-and-pop removal, no handles
 *   stow::arena<Bytes>     bump allocation; make<T>(), make_array<T>(n), scopes
 *   stow::heap<Bytes>      variable-size blocks; make<T>() / destroy(), arrays, raw alloc
 *   stow::handle<C>        a handle of container type C (==, <, hash, null, raw bits)
 *   stow::arena_scope      mark on construction, rewind on destruction
 *   STOW_CXX_DEFINE(name, C)  a container at namespace scope whose storage is .bss
 *                          (stow::global<C>); see "Where the storage goes"
 *
 * genpool and slotmap take two more template arguments: genpool<T, N, Tag,
 * IndexBits> (see "Handles"). Every container takes a last one, in_object (the
 * default) or in_bss, which only STOW_CXX_DEFINE sets. stow/pmr.hpp adds the
 * standard library's interfaces (std::pmr memory resources over an arena and a
 * heap, and stow::allocator<T, R>).
 *
 * Each one is a thin class over the C container of the same name (stow/<name>.h,
 * whose header is the manual for costs, failures and contract checks). What the
 * C++ layer adds is listed here; everything else (results, costs, what a check
 * level checks, what is a contract violation) is the C call's.
 *
 * Storage inside the object. A container holds its C struct first and its
 * storage after it, sized and aligned at compile time, exactly as the C DEFINE
 * macro would lay it out. So a container can be a member of anything (a world,
 * a level, a subsystem; two worlds are two sets of storage), a local, or a
 * global. Containers are neither copyable nor movable (the C struct points
 * into the object's own storage).
 *
 * Constant initialisation. Every constructor is constexpr and runs no code at
 * start-up: a global container (or a global object that has containers as
 * members, or one made by STOW_CXX_DEFINE) is ready before any constructor of
 * any file runs, so there is no initialisation order to get wrong; `constinit`
 * (C++20) makes the compiler prove it (STOW_CXX_DEFINE declares it so). A
 * container of a trivially destructible T has a trivial destructor too (outside
 * AddressSanitizer builds), so a global one registers nothing for exit either.
 * One of a T with a destructor has a destructor, which for a global the
 * compiler registers for exit from .init_array (__cxa_atexit, or __aeabi_atexit
 * on ARM), as for any global C++ object: a firmware that links no C library
 * provides that function, or keeps such a container in an object that main owns
 * (examples/cxx_entities does). A constructor writes the C struct's fields and
 * nothing else: the storage is not zeroed when a container is constructed at
 * run time (start-up stays O(1) whatever the capacity, as with the C DEFINE
 * macros), and no memset is called.
 * Where the storage goes: a constant-initialised object with pointers in it is
 * initialised data (.data), not .bss, and a container's storage is part of the
 * object. So a plain global container (`stow::arena<64 << 20> frame;`) takes
 * its size in flash and in the executable (64 MiB of them) as well as in RAM.
 * At namespace scope, make it with STOW_CXX_DEFINE(frame, stow::arena<64 <<
 * 20>) instead (defined at the end of this file): as a C DEFINE, its storage is
 * then an array of its own in a NOBITS section (.bss.stow.cxx.frame: RAM only),
 * and the object (of type stow::global<C>: C with its storage in_bss) is the C
 * struct and a pointer, constant-initialised; it is registered for the report
 * (stow/report.h), and STOW_CXX_DEFINE_IN(sub, ...) counts it in a subsystem. A
 * container that is a member of an object built at run time, or a local, costs
 * no flash at all.
 *
 * Construction and destruction. emplace(args...) constructs the item in place
 * from args (T(args...): empty parentheses value-initialise, so default member
 * initialisers hold; an aggregate without a constructor takes emplace(T{...})
 * in C++17). Everything that ends an item runs its destructor exactly once:
 * remove(), destroy(), clear(), refresh() for the items marked dead, and the
 * container's destructor for the items still there. The C calls that copy an
 * item by its bytes (insert) are used only when T is trivially copyable; for
 * another T, insert(const T &) copy-constructs instead. The calls that move
 * items by their bytes inside the container (the swap-and-pop of
 * slotmap::remove and packed::remove_at, the compaction of slotmap::refresh)
 * need T to be relocatable: stow::relocatable<T>::value, which is true for a
 * trivially copyable T and which you may specialise for a T that may be moved
 * by copying its bytes and forgetting the original (most types that do not
 * point into themselves). remove() and remove_at() move a T that is not
 * relocatable with its move constructor instead (through a temporary);
 * refresh() does not compile for it (a static_assert says why and what to do).
 *
 * Exceptions: every emplace, emplace_back, insert of a T that is not trivially
 * copyable, and make and make_array of arena and heap gives the strong
 * guarantee. If T's constructor throws, the slot, block or bytes go back to the
 * container before the exception goes on (stow_genpool_cancel,
 * stow_slotmap_cancel, stow_pool_free, the packed array's last place,
 * stow_heap_free, an arena rewind to a mark taken first): the container holds
 * the items it held, size() is what it was, no destructor ever runs on the
 * unconstructed slot, nothing leaks, and genpool and slotmap give the next item
 * the handle the failed one had (its generation is not spent); only the peak
 * statistic of pool, slotmap, packed and heap may count the attempt. A
 * make_array whose k-th constructor throws destroys the k - 1 made (the last
 * first) and frees the block. This costs nothing when the constructor cannot
 * throw (noexcept, or trivial), or with exceptions off (-fno-exceptions): the
 * code is then the plain placement new (make bench-cxx compares the object code
 * with exceptions on and off); otherwise the undo is a landing pad, outside the
 * path taken when nothing throws.
 *
 * Costs. The container's C struct is at its address and a handle is the C
 * handle's 32 bits, passed in a register: get, contains, insert (of a trivially
 * copyable T), remove (of a trivially destructible, relocatable T), mark_dead,
 * refresh, emplace, push and remove_at, arena and heap make, make_array and
 * destroy_array (of a T without a destructor) compile to the same instructions
 * as the C calls a C program would write (the C alloc, then the item's fields),
 * whatever the container's IndexBits; bench/cxx_cost.sh compares the object
 * code, `make bench-cxx` prints it. With exceptions on, a noexcept member that
 * ends in a call of a C function returning nothing (heap destroy and
 * destroy_array, packed remove_at) takes 2 instructions more on Cortex-M4: the
 * compiler must assume that the C function may throw, and keeps a frame for
 * std::terminate instead of a tail call. emplace() is the C alloc, which zeroes
 * the item, then the constructor; with no arguments, a trivially default
 * constructible T is left as those zero bytes, which is what
 * value-initialisation makes of it (a pointer to data member aside, whose null
 * is not zero bits on the usual ABIs). data() and size() of slotmap and packed
 * read the C struct's fields inline, so a range-for over them is a plain loop
 * with no call. pool<T, N> keeps one bit per block of its own (the C pool does
 * not know which blocks are live), so that it can iterate, clear and destroy:
 * on Cortex-M4 at -O2, emplace takes 19 instructions more than the C alloc,
 * destroy 13 more than the C free (33 at check level 1, which checks the
 * pointer against those bits). stow.hpp's own code calls no memset or memcpy
 * (tests/cxx/freestanding.cpp); constructing, copying or value-initialising a
 * large T may, as anywhere in C++.
 *
 * Handles. stow::handle<C> is the handle type of container type C
 * (C::handle_type): a handle of another container type, even one of the same
 * T, or a plain stow_handle_t, or an integer, does not convert to it: passing
 * one is a compile error. Two containers of the same type share a handle type;
 * give them different Tag types (the third template argument of genpool and
 * slotmap, any type, which may be incomplete) when their handles must not mix.
 * Containers that differ in IndexBits, or a global (STOW_CXX_DEFINE) and a
 * member of the same T and N, are different types: their handles do not mix.
 * A default-constructed handle is null; `if (h)` asks "not null" (not "alive":
 * that is contains(h)). ==, !=, <, <=, >, >= compare the raw bits; raw() and
 * handle<C>::from_raw() give and take the 32 bits for serialisation;
 * std::hash<stow::handle<C>> is there when <functional> is (a hosted build;
 * stow::handle_hash is there always).
 * Index bits per container: IndexBits (the fourth template argument of genpool
 * and slotmap, STOW_HANDLE_INDEX_BITS by default, 1 to 30) is how many low bits
 * of the container's handles hold the slot index; the other 32 - IndexBits
 * hold the generation, which decides how many reuses of a slot it takes before
 * an old handle could match again (STOW_GENERATION_OVERFLOW). So a particle
 * map of 4096 slots takes 12 and keeps 20 bits of generation, and a map of
 * 100000 slots takes 17 whatever the global option says, in one program. N must
 * be at most 2^IndexBits; the compile error names the limit, its value and the
 * way to raise it. The handle's index() and generation() read its container's
 * split (handle<C>::index_bits); the C struct keeps it (its index_mask), so
 * native() works with the C API as ever, but stow_handle_index() and
 * stow_handle_generation(), which read the global split, do not fit another
 * split (use the handle's). It costs nothing over the default: every C call
 * reads the split from the container, whichever it is. Handles are 32 bits:
 * at most 2^30 slots (docs/cxx.md says what 64-bit handles would cost).
 *
 * Iteration. `for (T &item : container)` visits every live item: in slot order
 * for pool and genpool (removing the current item inside the loop is fine),
 * in packed order for slotmap and packed, whose data() and size() are also the
 * dense array to hand to a loop or an upload. slotmap's dead-marked items are
 * live until refresh() and are visited. Removing from a slotmap or packed array
 * inside a range-for moves the last item into the current place: use
 * mark_dead()/refresh(), or an index loop, there.
 * With handles: `for (auto [h, item] : c.items())` on genpool and slotmap gives
 * each live item (item: T &, or const T & through a const container) with its
 * handle h, read in line: a slot map's from its tables (two loads), a genpool's
 * from its slot's word, over genpool's fast walk (STOW_GENPOOL_FOREACH). Per
 * item on Cortex-M4 (`make bench-cxx`): slotmap 9 instructions (the loop
 * without handles 5; the C loop over stow_slotmap_handle_at 20), genpool 12.4
 * over a full pool (FOREACH without handles 7.4; FOREACH with
 * stow_genpool_handle_of 45.7; this range-for 37). genpool's items() keeps the
 * fast walk's rule: the body may remove the item it is on and nothing else.
 * slotmap::handle_of(item) gives an item's handle from its address, as
 * genpool::handle_of does.
 *
 * Contract checks (STOW_CHECK_LEVEL >= 1) are the C calls', plus these of this
 * layer's own, reported through the same hook with the same rule (the call
 * then does nothing): pool::destroy() of a pointer that is not a live block of
 * this pool ("stow::pool::destroy: pointer is not a live block of this pool"),
 * packed::remove_at() of an index at or beyond size(), slotmap::handle_of() of
 * a pointer that is not an item of the map, and heap::destroy_array() of a
 * pointer not from make_array or with another count than make_array's.
 *
 * Requirements: C++17 or later (if constexpr, inline variables, structured
 * bindings in items(), guaranteed copy elision; stow/stow.h alone works from
 * C++11); g++ or clang++ (the type traits come from the compiler's builtins).
 * No C++ standard library header is needed (Debian's arm-none-eabi-g++ has
 * none unless libstdc++-arm-none-eabi-dev is installed); <functional> is
 * included only where it exists in a hosted build, for std::hash. Works with
 * -fno-exceptions and -fno-rtti; nothing here throws, and with exceptions on a
 * constructor's exception passes through (see "Exceptions").
 * Options: those of config.h (STOW_NO_STD_HASH leaves std::hash out).
 */
#ifndef STOW_STOW_HPP
#define STOW_STOW_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "stow/stow.hpp needs C++17 or later (stow/stow.h alone works from C++11 and C)"
#endif

/* The C headers' private names (stow__*, STOW__*) contain a double underscore,
 * which C++ reserves: not this program's warnings. */
#if defined(__clang__)
#pragma clang diagnostic push
#if __has_warning("-Wreserved-identifier")
#pragma clang diagnostic ignored "-Wreserved-identifier"
#endif
#if __has_warning("-Wreserved-macro-identifier")
#pragma clang diagnostic ignored "-Wreserved-macro-identifier"
#endif
#endif
#include "stow.h"
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#if !defined(STOW_NO_STD_HASH) && defined(__has_include) && __STDC_HOSTED__
#if __has_include(<functional>)
#include <functional>
#define STOW_HPP_STD_HASH 1
#endif
#endif

/* Exceptions on (the C++ default) or off (-fno-exceptions): stow.hpp's own code
 * throws nothing either way, but a constructor may. */
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define STOW_HPP_EXCEPTIONS 1
#else
#define STOW_HPP_EXCEPTIONS 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#define STOW_HPP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STOW_HPP_ASAN 1
#endif
#endif
#ifndef STOW_HPP_ASAN
#define STOW_HPP_ASAN 0
#endif
#if STOW_HPP_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* Type traits from the compiler: no <type_traits> needed. */
#if defined(__clang__) || !defined(__GNUC__)
#define STOW_HPP_TRIVIAL_DTOR(T) __is_trivially_destructible(T)
#else
#define STOW_HPP_TRIVIAL_DTOR(T) __has_trivial_destructor(T)
#endif

/* A contract check of this layer: the C layer's rule (report, then the call
 * does nothing). */
#if STOW_CHECK_LEVEL >= 1
#define STOW_HPP_VIOLATED(cond, what) \
    (!(cond) ? (stow_port_assert_failed(STOW_CHECK_TEXT(what), STOW__FILE, __LINE__), true) : false)
#else
#define STOW_HPP_VIOLATED(cond, what) false
#endif

namespace stow {
namespace detail {

/* Placement new without <new>: an allocation function with a tag of our own
 * (declared below, at global scope), so that it never meets the standard one. */
struct place_t {
};
inline constexpr place_t place{};

#define STOW_HPP_IN_BSS                                                                         \
    "a stow::in_bss container (stow::global<C>) has its storage apart from the object: make it " \
    "with STOW_CXX_DEFINE(name, C), which declares the storage with it"

template <class T> struct remove_ref { using type = T; };
template <class T> struct remove_ref<T &> { using type = T; };
template <class T> struct remove_ref<T &&> { using type = T; };

template <class T> constexpr T &&forward(typename remove_ref<T>::type &t_) noexcept
{
    return static_cast<T &&>(t_);
}
template <class T> constexpr typename remove_ref<T>::type &&move(T &&t_) noexcept
{
    return static_cast<typename remove_ref<T>::type &&>(t_);
}

template <class T> inline constexpr bool trivially_copyable = __is_trivially_copyable(T);
template <class T> inline constexpr bool trivially_destructible = STOW_HPP_TRIVIAL_DTOR(T);
template <class T> inline constexpr bool trivially_default_constructible = __is_trivially_constructible(T);

/* The link-time configuration check (config.h) for containers of this layer,
 * as for a DEFINE: the container's config field points at the addresses of the
 * symbols that name this file's options. */
#if STOW__HAVE_GUARD
inline constexpr const char *const config_guard[3] = {
    &STOW__GUARD_SYMBOL(STOW__GUARD_LEVEL), &STOW__GUARD_SYMBOL(STOW__GUARD_INDEX),
    &STOW__GUARD_SYMBOL(STOW__GUARD_OVERFLOW)};
inline constexpr const char *const *config = config_guard;
#else
inline constexpr const char *const *config = nullptr;
#endif
/* A heap's adds STOW_HEAP_TRACE: heap.h's own list, as its DEFINE uses. */
inline constexpr const char *const *heap_config = STOW__HEAP_CONFIG_GUARD;

} // namespace detail

/* Where a container keeps its storage: its last template argument, which is
 * in_object unless the container was made by STOW_CXX_DEFINE (below).
 *   in_object  inside the object: the container may be a member, a local or a
 *              global (a global one is initialised data: its storage is in the
 *              executable's and the flash image's .data).
 *   in_bss     in a zero-initialised array of its own beside the object (NOBITS:
 *              RAM only), which STOW_CXX_DEFINE declares; stow::global<C> is the
 *              type it makes of a container type C. */
struct in_object {
};
struct in_bss {
};

namespace detail {

template <class Where> inline constexpr bool is_in_object = false;
template <> inline constexpr bool is_in_object<in_object> = true;

/* The storage member: in_object, Bytes bytes aligned to Align, left unwritten
 * by the constexpr constructor (a union: C++17 constexpr constructors must
 * initialise one member); in_bss, the address of the array that holds them.
 * Either way `bytes` is where they start. */
template <class Where, size_t Bytes, size_t Align> struct storage {
    union {
        unsigned char unset;
        alignas(Align) unsigned char bytes[Bytes];
    };
    constexpr explicit storage(unsigned char *) noexcept : unset() {}
};
template <size_t Bytes, size_t Align> struct storage<in_bss, Bytes, Align> {
    unsigned char *bytes;
    constexpr explicit storage(unsigned char *at_) noexcept : bytes(at_) {}
};

/* The pool's live bits: in_object, Words words left unwritten; in_bss, where
 * they are in the array (as bytes: a constant expression cannot make a
 * uint32_t * of an unsigned char *). */
template <class Where, size_t Words> struct word_storage {
    union {
        unsigned char unset;
        uint32_t words[Words];
    };
    constexpr explicit word_storage(unsigned char *) noexcept : unset() {}
    uint32_t *get() noexcept { return words; }
    const uint32_t *get() const noexcept { return words; }
};
template <size_t Words> struct word_storage<in_bss, Words> {
    unsigned char *at;
    constexpr explicit word_storage(unsigned char *at_) noexcept : at(at_) {}
    uint32_t *get() const noexcept { return static_cast<uint32_t *>(static_cast<void *>(at)); }
};

constexpr size_t round_up(size_t n_, size_t to_) noexcept { return (n_ + to_ - 1u) / to_ * to_; }
constexpr size_t larger(size_t a_, size_t b_) noexcept { return a_ > b_ ? a_ : b_; }

/* 0, 1, ..., N - 1 as a pack (the compilers' builtins: no <utility>). */
template <class T, T... I> struct index_list {
};
#if defined(__clang__)
template <size_t N> using make_index_list = __make_integer_seq<index_list, size_t, N>;
#else
template <size_t N> using make_index_list = index_list<size_t, __integer_pack(N)...>;
#endif

/* AddressSanitizer: the C containers poison the memory they take back, and that
 * poison outlives them (config.h); a container's storage is part of an object
 * whose memory is used again (a stack frame, an object freed), so it is
 * unpoisoned when the container goes. */
inline void unpoison(const void *p_, size_t n_) noexcept
{
#if STOW_HPP_ASAN
    __asan_unpoison_memory_region(p_, n_);
#else
    (void)p_;
    (void)n_;
#endif
}

/* A destructor only where there is something to do: a container of a trivially
 * destructible T is trivially destructible (outside AddressSanitizer builds). */
template <class Base, bool Trivial> class destructor : public Base {
  protected:
    constexpr destructor() noexcept = default;
    constexpr explicit destructor(unsigned char *at_) noexcept : Base(at_) {}
    ~destructor() { this->destroy_items(); }

  public:
    destructor(const destructor &) = delete;
    destructor &operator=(const destructor &) = delete;
};
template <class Base> class destructor<Base, true> : public Base {
  protected:
    constexpr destructor() noexcept = default;
    constexpr explicit destructor(unsigned char *at_) noexcept : Base(at_) {}

  public:
    destructor(const destructor &) = delete;
    destructor &operator=(const destructor &) = delete;
};
template <class T> inline constexpr bool needs_destructor = !trivially_destructible<T> || STOW_HPP_ASAN;

template <class T> T &&declval() noexcept; /* never defined: for noexcept() only */

/* Whether constructing a T from Args may throw: never with exceptions off
 * (-fno-exceptions), where nothing throws. */
template <class T, class... Args>
inline constexpr bool may_throw = STOW_HPP_EXCEPTIONS && !noexcept(T(declval<Args>()...));

/* Constructs a T from args at p. If the constructor throws, undo() gives the
 * memory back to its container before the exception goes on: the strong
 * guarantee of every emplace and make. With exceptions off, or a constructor
 * that cannot throw, this is the placement new alone (undo is never called,
 * and no code is generated for it). */
template <class T, class Undo, class... Args> T *construct(void *p_, const Undo &undo_, Args &&...args_)
{
#if STOW_HPP_EXCEPTIONS
    if constexpr (may_throw<T, Args...>) {
        try {
            return ::new (place, p_) T(detail::forward<Args>(args_)...);
        } catch (...) {
            undo_();
            throw;
        }
    }
#endif
    (void)undo_;
    return ::new (place, p_) T(detail::forward<Args>(args_)...);
}

/* The same in memory that a C call has just zeroed. With no args, a trivially
 * default constructible T is its zero bytes already (that is what
 * value-initialisation makes of it, pointers to data members aside, whose null
 * is not zero bits on the common ABIs), and nothing more is written. */
template <class T, class Undo, class... Args> T *construct_in_zeroed(void *p_, const Undo &undo_, Args &&...args_)
{
    if constexpr (sizeof...(Args) == 0 && trivially_default_constructible<T>) {
        (void)undo_;
        return static_cast<T *>(p_);
    } else {
        return construct<T>(p_, undo_, detail::forward<Args>(args_)...);
    }
}

inline uint32_t lowest_bit_index(uint32_t x_) noexcept { return static_cast<uint32_t>(__builtin_ctz(x_)); }

template <class T> constexpr T rotate_right(T x_, uint32_t n_) noexcept
{
    return n_ == 0u ? x_ : static_cast<T>((x_ >> n_) | (x_ << (sizeof(T) * CHAR_BIT - n_)));
}

} // namespace detail

/* What a slot map or packed array may do to move an item: copy its bytes to the
 * new place and forget the old ones. True for a trivially copyable T; specialise
 * it (template <> struct stow::relocatable<T> { static constexpr bool value =
 * true; };) for a T that survives that (no pointer into itself, its address not
 * registered anywhere). */
template <class T> struct relocatable {
    static constexpr bool value = detail::trivially_copyable<T>;
};

} // namespace stow

/* The tagged placement form, at global scope where allocation functions live.
 * Not noexcept: a non-throwing allocation function would make every new
 * expression test its result for null. */
inline void *operator new(size_t, stow::detail::place_t, void *p_) { return p_; }
inline void operator delete(void *, stow::detail::place_t, void *) noexcept {}

namespace stow {

/* ------------------------------------------------------------------ handle */

template <class T, uint32_t N, class Tag, unsigned IndexBits, class Where> class genpool;
template <class T, uint32_t N, class Tag, unsigned IndexBits, class Where> class slotmap;

namespace detail {
/* The index bits of a container type's handles, without completing the type
 * (an item may hold a handle of its own container). */
template <class Container> struct index_bits_of {
    static constexpr unsigned value = STOW_HANDLE_INDEX_BITS;
};
template <class T, uint32_t N, class Tag, unsigned B, class W> struct index_bits_of<genpool<T, N, Tag, B, W>> {
    static constexpr unsigned value = B;
};
template <class T, uint32_t N, class Tag, unsigned B, class W> struct index_bits_of<slotmap<T, N, Tag, B, W>> {
    static constexpr unsigned value = B;
};
} // namespace detail

/* The handle of an item of a container of type Container: 32 bits, the C
 * handle's encoding (stow/handle.h), passed and returned in a register as the C
 * handle is. Container need not be complete (an item may hold a handle of its
 * own container type). (No member names Container: for a Container aligned to
 * 8, such as a slot map, arm-none-eabi-g++ would then print a note about
 * argument passing having changed in GCC 7.1 wherever a handle is passed.) */
template <class Container> class handle {
  public:
    /* The null handle: never issued, always stale. */
    constexpr handle() noexcept : bits_(0u) {}
    static constexpr handle null() noexcept { return handle(); }

    /* The raw 32 bits, and a handle from them (for serialisation: a handle from
     * bits that this container type did not issue is stale, or names another
     * item; the container cannot tell a forged handle from a real one). */
    constexpr uint32_t raw() const noexcept { return bits_; }
    static constexpr handle from_raw(uint32_t raw_) noexcept { return handle(raw_); }

    /* The C handle, for the C API. */
    constexpr stow_handle_t untyped() const noexcept { return stow_handle_t{bits_}; }

    /* The slot index and the generation, with the container type's split
     * (its IndexBits). */
    static constexpr unsigned index_bits = detail::index_bits_of<Container>::value;
    constexpr uint32_t index() const noexcept { return bits_ & STOW__HANDLE_MASK_OF(index_bits); }
    constexpr uint32_t generation() const noexcept { return bits_ >> index_bits; }

    /* True when not null (generation 0 is never issued). Not "alive": ask the
     * container, contains(h). */
    constexpr explicit operator bool() const noexcept { return generation() != 0u; }

    friend constexpr bool operator==(handle a_, handle b_) noexcept { return a_.bits_ == b_.bits_; }
    friend constexpr bool operator!=(handle a_, handle b_) noexcept { return a_.bits_ != b_.bits_; }
    friend constexpr bool operator<(handle a_, handle b_) noexcept { return a_.bits_ < b_.bits_; }
    friend constexpr bool operator<=(handle a_, handle b_) noexcept { return a_.bits_ <= b_.bits_; }
    friend constexpr bool operator>(handle a_, handle b_) noexcept { return a_.bits_ > b_.bits_; }
    friend constexpr bool operator>=(handle a_, handle b_) noexcept { return a_.bits_ >= b_.bits_; }

  private:
    constexpr explicit handle(uint32_t raw_) noexcept : bits_(raw_) {}
    uint32_t bits_;
};

/* A hash of a handle, with or without the standard library: its bits (handles
 * are unique while they live, and their index bits vary first). */
struct handle_hash {
    template <class C> constexpr size_t operator()(handle<C> h_) const noexcept { return h_.raw(); }
};

/* ------------------------------------------------------------------ pool */

namespace detail {

template <class T, uint32_t N, class Where> class pool_base {
  public:
    static constexpr size_t block_align = STOW_POOL_BLOCK_ALIGN(alignof(T));
    static constexpr size_t stride = STOW_POOL_STRIDE(sizeof(T), alignof(T));
    static constexpr size_t bytes = STOW_POOL_BYTES(sizeof(T), alignof(T), N);
    static constexpr uint32_t words = (N + 31u) / 32u;
    /* in_bss: one array, the blocks and then the live bits. */
    static constexpr size_t words_offset = round_up(bytes, sizeof(uint32_t));
    static constexpr size_t storage_bytes = words_offset + sizeof(uint32_t) * words;
    static constexpr size_t storage_align = larger(block_align, alignof(uint32_t));

  protected:
    static constexpr uintptr_t inverse = STOW__CAST(uintptr_t, STOW__ODD_INVERSE(STOW__ODD_OF(stride)));
    static constexpr uint32_t shift = STOW__SHIFT_OF(stride);

    static_assert(N >= 1u, "stow::pool: the capacity must be at least 1");
    static_assert(STOW__FITS_SIZE(N, stride, STOW__POOL_MAP_BYTES(N)),
                  "stow::pool: the storage does not fit in size_t");

    stow_pool_t pool_; /* first: the object's address is the C pool's */
    /* The live bits, a word per 32 blocks. Words [0, ready_) are valid; the
     * others are whatever the memory held (start-up stays O(1)): the C pool
     * hands out never-used blocks in address order, so a word is first needed
     * for its first block, and zeroed then. */
    uint32_t ready_;
    word_storage<Where, words> live_;
    storage<Where, bytes, block_align> mem_;

    constexpr pool_base() noexcept : pool_base(mem_.bytes) { static_assert(is_in_object<Where>, STOW_HPP_IN_BSS); }
    /* What STOW_POOL_DEFINE builds (stow/pool.h). Every field is written, none
     * left to value-initialisation: a constructor run at run time is then a few
     * stores, with no call to memset. */
    constexpr explicit pool_base(unsigned char *at_) noexcept
        : pool_{nullptr,
                STOW__POOL_TAGGED_INIT
                at_,
                at_,
                at_ + static_cast<size_t>(N) * stride,
                stride,
                inverse,
                shift,
                N,
                0u,
                0u,
                0u,
                sizeof(T),
                alignof(T),
#if STOW_CHECK_LEVEL >= 2
                at_,
#endif
                config,
                0u},
          ready_(0u), live_(at_ + words_offset), mem_(at_)
    {
    }

    /* The block index of p: exact for a block start, >= N for anything else
     * (the C pool's test: see index_of in pool.c). */
    uintptr_t index_of(const void *p_) const noexcept
    {
        uintptr_t off_ = reinterpret_cast<uintptr_t>(p_) - reinterpret_cast<uintptr_t>(mem_.bytes);
        return rotate_right<uintptr_t>(off_ * inverse, shift);
    }
    /* Zeroes the words from ready_ up to w_. The pool reaches a word with its
     * first block, so this is one word, w_ == ready_ (unless blocks were
     * taken through native(), which the live bits do not see); the empty asm
     * keeps GCC from making the loop a call to memset. */
#if defined(__GNUC__)
    __attribute__((noinline, cold))
#endif
    void ready_words(uint32_t w_) noexcept
    {
        uint32_t *word_ = &live_at(ready_);
        uint32_t *stop_ = &live_at(w_);
        do {
            *word_ = 0u;
#if defined(__GNUC__)
            __asm__("" : "+r"(word_));
#endif
        } while (word_++ != stop_);
        ready_ = w_ + 1u;
    }

    /* Live word w (the array itself when it is a member: GCC addresses a
     * member array more tightly than a pointer that an accessor returns). */
    uint32_t &live_at(uint32_t w_) noexcept
    {
        if constexpr (is_in_object<Where>) {
            return live_.words[w_];
        } else {
            return live_.get()[w_];
        }
    }
    uint32_t live_at(uint32_t w_) const noexcept { return const_cast<pool_base *>(this)->live_at(w_); }

    /* For an index below N. */
    bool is_live(uintptr_t i_) const noexcept
    {
        return (i_ >> 5) < ready_ && ((live_at(static_cast<uint32_t>(i_ >> 5)) >> (i_ & 31u)) & 1u) != 0u;
    }
    T *block(uint32_t i_) noexcept
    {
        return static_cast<T *>(static_cast<void *>(mem_.bytes + static_cast<size_t>(i_) * stride));
    }

    void destroy_live() noexcept
    {
        if constexpr (!trivially_destructible<T>) {
            for (uint32_t w_ = 0; w_ < ready_; w_++) {
                for (uint32_t left_ = live_at(w_); left_ != 0u; left_ &= left_ - 1u) {
                    block(w_ * 32u + lowest_bit_index(left_))->~T();
                }
            }
        }
    }
    void destroy_items() noexcept
    {
        destroy_live();
        unpoison(mem_.bytes, bytes);
    }

    /* The block p, just taken from the C pool, holds a live item now: its bit. */
    void set_live(const void *p_) noexcept
    {
        uintptr_t i_ = index_of(p_);
        uint32_t w_ = static_cast<uint32_t>(i_ >> 5);
        if (w_ >= ready_) {
            ready_words(w_);
        }
        live_at(w_) |= UINT32_C(1) << (i_ & 31u);
    }
};

/* Iteration over a pool's live blocks: the bit map, a word at a time. */
template <class T, class Pool> class pool_iterator {
  public:
    /* The first live item (begin), or the end when end_ is true. */
    pool_iterator(Pool *of_, bool end_) noexcept : pool_(of_), word_(Pool::end_word), bits_(0u), index_(0u)
    {
        if (!end_ && pool_->live_words() != 0u) {
            word_ = 0u;
            bits_ = pool_->live_word(0u);
            advance();
        }
    }
    T &operator*() const noexcept { return *pool_->block_at(index_); }
    T *operator->() const noexcept { return pool_->block_at(index_); }
    pool_iterator &operator++() noexcept
    {
        advance();
        return *this;
    }
    friend bool operator==(const pool_iterator &a_, const pool_iterator &b_) noexcept
    {
        return a_.word_ == b_.word_ && a_.index_ == b_.index_;
    }
    friend bool operator!=(const pool_iterator &a_, const pool_iterator &b_) noexcept { return !(a_ == b_); }

  private:
    /* To the next set bit: the current word's rest was read before (so the
     * current item may be destroyed in the loop), later words now. */
    void advance() noexcept
    {
        while (bits_ == 0u) {
            if (++word_ >= pool_->live_words()) {
                word_ = Pool::end_word;
                index_ = 0u;
                return;
            }
            bits_ = pool_->live_word(word_);
        }
        index_ = word_ * 32u + lowest_bit_index(bits_);
        bits_ &= bits_ - 1u;
    }
    Pool *pool_;
    uint32_t word_;
    uint32_t bits_;
    uint32_t index_;
};

} // namespace detail

/* Fixed-size blocks for T (stow/pool.h), with N blocks of its own. The
 * pool keeps a live bit per block (N / 8 bytes, rounded up to words) so that it
 * can visit, clear and destroy its items; the C pool does not know which blocks
 * are live. */
template <class T, uint32_t N, class Where = in_object>
class pool : private detail::destructor<detail::pool_base<T, N, Where>, !detail::needs_destructor<T>> {
    using base = detail::pool_base<T, N, Where>;
    template <class, class> friend class detail::pool_iterator;
    static constexpr uint32_t end_word = base::words;
    uint32_t live_words() const noexcept { return this->ready_; }
    uint32_t live_word(uint32_t w_) const noexcept { return this->live_at(w_); }
    T *block_at(uint32_t i_) const noexcept { return const_cast<pool *>(this)->block(i_); }

  public:
    using value_type = T;
    using iterator = detail::pool_iterator<T, pool>;
    using const_iterator = detail::pool_iterator<const T, const pool>;
    using base::storage_align;
    using base::storage_bytes;

    constexpr pool() noexcept = default;
    /* STOW_CXX_DEFINE's: the storage is at (storage_bytes, aligned to storage_align). */
    constexpr explicit pool(unsigned char *at_) noexcept : detail::destructor<base, !detail::needs_destructor<T>>(at_)
    {
    }

    /* A T constructed from args in a free block, or nullptr (counting a fail)
     * when all N are in use. O(1). If the constructor throws, the block goes
     * back (stow_pool_free) before the exception goes on: the pool is as it
     * was (strong guarantee; only the peak statistic may count the attempt). */
    template <class... Args> T *emplace(Args &&...args_)
    {
        void *p_ = stow_pool_alloc(&this->pool_);
        if (p_ == nullptr) {
            return nullptr;
        }
        T *item_ = detail::construct<T>(
            p_, [this, p_] { stow_pool_free(&this->pool_, p_); }, detail::forward<Args>(args_)...);
        this->set_live(p_);
        return item_;
    }

    /* Destroys *item and gives its block back; nullptr is ignored. O(1).
     * Contract violation (nothing happens): item is not a live block of this
     * pool (foreign, interior, destroyed already). */
    void destroy(T *item_) noexcept
    {
        if (item_ == nullptr) {
            return;
        }
        uintptr_t i_ = this->index_of(item_);
        if (STOW_HPP_VIOLATED(i_ < N && this->is_live(i_), "stow::pool::destroy: pointer is not a live block of this pool")) {
            return;
        }
        item_->~T();
        this->live_at(static_cast<uint32_t>(i_ >> 5)) &= ~(UINT32_C(1) << (i_ & 31u));
        stow_pool_free(&this->pool_, item_);
    }

    /* True when item is a live block of this pool. O(1). */
    bool contains(const T *item_) const noexcept
    {
        uintptr_t i_ = this->index_of(item_);
        return i_ < N && this->is_live(i_);
    }

    /* Destroys every item (in block order) and frees every block.
     * O(blocks used / 32 + items). */
    void clear() noexcept
    {
        this->destroy_live();
        this->ready_ = 0u;
        stow_pool_reset(&this->pool_);
    }

    uint32_t size() const noexcept { return stow_pool_used(&this->pool_); }
    bool empty() const noexcept { return size() == 0u; }
    static constexpr uint32_t capacity() noexcept { return N; }
    stow_stats_t stats() const noexcept
    {
        stow_stats_t s_;
        stow_pool_stats(&this->pool_, &s_);
        return s_;
    }
    bool check() const noexcept { return stow_pool_check(&this->pool_); }

    /* Live items in block order. */
    iterator begin() noexcept { return iterator(this, false); }
    iterator end() noexcept { return iterator(this, true); }
    const_iterator begin() const noexcept { return const_iterator(this, false); }
    const_iterator end() const noexcept { return const_iterator(this, true); }

    /* The C pool, for the C API (stow/pool.h). Blocks freed or allocated
     * through it bypass the live bits and the destructors. */
    stow_pool_t &native() noexcept { return this->pool_; }
    const stow_pool_t &native() const noexcept { return this->pool_; }
};

/* ------------------------------------------------------------------ genpool */

namespace detail {

/* The capacity checks of genpool and slotmap: N slots must fit IndexBits index
 * bits (the message names the option that raises the limit, and its value). */
#define STOW_HPP_CAPACITY_DEFAULT(kind)                                                         \
    "stow::" kind ": the capacity must be 1 to STOW_HANDLE_MAX_CAPACITY, which is "             \
    STOW__HANDLE_LIMIT_TEXT ": for more slots define STOW_HANDLE_INDEX_BITS higher (at most "   \
    "30; the generation of every handle gets a bit less), or give this " kind " index bits of its "  \
    "own (its fourth template argument, IndexBits)"
#define STOW_HPP_CAPACITY_OWN(kind)                                                             \
    "stow::" kind ": the capacity must be 1 to 2^IndexBits (its fourth template argument): "    \
    "raise IndexBits (at most 30) for more slots"
template <uint32_t N, unsigned IndexBits> inline constexpr bool fits_default =
    IndexBits != STOW_HANDLE_INDEX_BITS || (N >= 1u && N <= STOW_HANDLE_MAX_CAPACITY);
template <uint32_t N, unsigned IndexBits> inline constexpr bool fits_own =
    IndexBits == STOW_HANDLE_INDEX_BITS || IndexBits > 30u || (N >= 1u && N <= (UINT64_C(1) << IndexBits));
#define STOW_HPP_INDEX_BITS(kind) "stow::" kind ": IndexBits must be 1 to 30 (the generation needs 2 bits or more)"

template <class T, uint32_t N, unsigned IndexBits, class Where> class genpool_base {
  public:
    static constexpr size_t bytes = STOW_GENPOOL_BYTES(sizeof(T), alignof(T), N);
    static constexpr size_t storage_bytes = bytes;
    static constexpr size_t storage_align = STOW_GENPOOL_BUF_ALIGN(alignof(T));

  protected:
    static_assert(IndexBits >= 1u && IndexBits <= 30u, STOW_HPP_INDEX_BITS("genpool"));
    static_assert(fits_default<N, IndexBits>, STOW_HPP_CAPACITY_DEFAULT("genpool"));
    static_assert(fits_own<N, IndexBits>, STOW_HPP_CAPACITY_OWN("genpool"));
    static_assert(STOW__CAST(uint64_t, sizeof(T)) * N <= UINT32_MAX,
                  "stow::genpool: the items must take less than 4 GiB");
    static_assert(STOW__FITS_SIZE(N, STOW__GENPOOL_STRIDE(sizeof(T), alignof(T)) + 5u, 7u),
                  "stow::genpool: the storage does not fit in size_t");

    stow_genpool_t pool_; /* first: the object's address is the C pool's */
    storage<Where, bytes, storage_align> mem_;

    constexpr genpool_base() noexcept : genpool_base(mem_.bytes) { static_assert(is_in_object<Where>, STOW_HPP_IN_BSS); }
    /* What STOW_GENPOOL_DEFINE_TYPED_BITS builds (stow/genpool.h). */
    constexpr explicit genpool_base(unsigned char *at_) noexcept
        : pool_{at_,
                at_ + STOW__GENPOOL_WORDS_OFFSET(sizeof(T), alignof(T), N),
                at_ + STOW__GENPOOL_BITS_OFFSET(sizeof(T), alignof(T), N),
                static_cast<uint32_t>(sizeof(T)),
                0u,
                N,
                0u,
                0u,
                0u,
                N,
                0u,
                static_cast<uint32_t>(sizeof(T)),
                STOW__GENPOOL_COPY_WORDS(sizeof(T), alignof(T)),
                STOW__SHIFT_OF(sizeof(T)),
                static_cast<uint32_t>(STOW__ODD_INVERSE(STOW__ODD_OF(sizeof(T)))),
                0u,
                0u,
                0u,
                config,
                0u,
                STOW__HANDLE_MASK_OF(IndexBits)},
          mem_(at_)
    {
    }

    void destroy_live() noexcept
    {
        if constexpr (!trivially_destructible<T>) {
            uint32_t cursor_ = 0u;
            while (void *p_ = stow_genpool_iterate(&pool_, &cursor_)) {
                static_cast<T *>(p_)->~T();
            }
        }
    }
    void destroy_items() noexcept
    {
        destroy_live();
        unpoison(mem_.bytes, bytes);
    }
};

/* items(): a handle and its item, for `for (auto [h, item] : c.items())`. */
template <class Handle, class V> struct handle_and_item {
    Handle handle;
    V &item;
};

/* The end of an items() range: the iterator knows when it is done. */
struct items_end {
};

/* A range of begin() and items_end over the C container c. The iterator is
 * made by begin(), in place (a copy of a genpool's walk state could cost a
 * call of memcpy). */
template <class It, class Native> class items_range {
  public:
    explicit items_range(const Native *c_) noexcept : native_(c_) {}
    It begin() const noexcept { return It(native_); }
    items_end end() const noexcept { return items_end(); }

  private:
    const Native *native_;
};

/* A genpool's items with their handles: the fast walk of stow/genpool.h
 * (STOW_GENPOOL_FOREACH's, in line), and each item's handle, which is its
 * slot's word (the slot is the item's offset from slot 0, in items). */
template <class Handle, class V> class genpool_items_iterator {
  public:
    explicit genpool_items_iterator(const stow_genpool_t *g_) noexcept
        : walk_(stow_genpool_walk_begin(g_)), words_(static_cast<const uint32_t *>(g_->words)),
          items_(static_cast<V *>(static_cast<void *>(g_->items))), more_(stow_genpool_walk_next(&walk_))
    {
    }
    handle_and_item<Handle, V> operator*() const noexcept
    {
        V *item_ = static_cast<V *>(walk_.item);
        return handle_and_item<Handle, V>{Handle::from_raw(words_[item_ - items_]), *item_};
    }
    genpool_items_iterator &operator++() noexcept
    {
        more_ = stow_genpool_walk_next(&walk_);
        return *this;
    }
    friend bool operator!=(const genpool_items_iterator &it_, items_end) noexcept { return it_.more_; }
    friend bool operator==(const genpool_items_iterator &it_, items_end) noexcept { return !it_.more_; }

  private:
    stow_genpool_walk_t walk_;
    const uint32_t *words_;
    V *items_;
    bool more_;
};

/* Iteration over a genpool's live items: stow_genpool_iterate(). */
template <class V, class Native> class genpool_iterator {
  public:
    genpool_iterator() noexcept : pool_(nullptr), cursor_(0u), item_(nullptr) {}
    explicit genpool_iterator(Native *g_) noexcept
        : pool_(g_), cursor_(0u), item_(static_cast<V *>(stow_genpool_iterate(g_, &cursor_)))
    {
    }
    V &operator*() const noexcept { return *item_; }
    V *operator->() const noexcept { return item_; }
    genpool_iterator &operator++() noexcept
    {
        item_ = static_cast<V *>(stow_genpool_iterate(pool_, &cursor_));
        return *this;
    }
    friend bool operator==(const genpool_iterator &a_, const genpool_iterator &b_) noexcept
    {
        return a_.item_ == b_.item_;
    }
    friend bool operator!=(const genpool_iterator &a_, const genpool_iterator &b_) noexcept
    {
        return a_.item_ != b_.item_;
    }

  private:
    Native *pool_;
    uint32_t cursor_;
    V *item_;
};

} // namespace detail

/* A generational arena (stow/genpool.h): N items that never move while they
 * live, named by handles that go stale when their item is removed. Tag makes
 * the handle type differ between genpools of the same T and N; IndexBits is
 * how many low bits of its handles hold the slot index (the rest hold the
 * generation; see "Handles" above). */
template <class T, uint32_t N, class Tag = void, unsigned IndexBits = STOW_HANDLE_INDEX_BITS,
          class Where = in_object>
class genpool : private detail::destructor<detail::genpool_base<T, N, IndexBits, Where>,
                                           !detail::needs_destructor<T>> {
    using base = detail::genpool_base<T, N, IndexBits, Where>;

  public:
    using value_type = T;
    using handle_type = handle<genpool>;
    using iterator = detail::genpool_iterator<T, const stow_genpool_t>;
    using const_iterator = detail::genpool_iterator<const T, const stow_genpool_t>;
    static constexpr unsigned index_bits = IndexBits;
    using base::storage_align;
    using base::storage_bytes;

    constexpr genpool() noexcept = default;
    /* STOW_CXX_DEFINE's: the storage is at (storage_bytes, aligned to storage_align). */
    constexpr explicit genpool(unsigned char *at_) noexcept
        : detail::destructor<base, !detail::needs_destructor<T>>(at_)
    {
    }

    /* A T constructed from args in a free slot, and its handle; a null handle
     * (counting a fail) when the pool is full. O(1) plus the C alloc's zeroing
     * of the item, plus the constructor. If the constructor throws, the slot
     * goes back (stow_genpool_cancel) before the exception goes on: the pool is
     * as it was, down to the handle the next emplace gives (strong guarantee). */
    template <class... Args> handle_type emplace(Args &&...args_)
    {
        stow_handle_t h_;
        void *p_ = stow_genpool_alloc(&this->pool_, &h_);
        if (p_ != nullptr) {
            detail::construct_in_zeroed<T>(
                p_, [this, h_] { (void)stow_genpool_cancel(&this->pool_, h_); },
                detail::forward<Args>(args_)...);
        }
        return handle_type::from_raw(h_.bits);
    }

    /* A copy of item: the C insert (a byte copy) for a trivially copyable T,
     * the copy constructor for any other. */
    handle_type insert(const T &item_)
    {
        if constexpr (detail::trivially_copyable<T>) {
            return handle_type::from_raw(stow_genpool_insert(&this->pool_, &item_).bits);
        } else {
            return emplace(item_);
        }
    }

    /* The item h names, or nullptr when h is stale or null. O(1). */
    T *get(handle_type h_) noexcept { return static_cast<T *>(stow_genpool_get(&this->pool_, h_.untyped())); }
    const T *get(handle_type h_) const noexcept
    {
        return static_cast<const T *>(stow_genpool_get(&this->pool_, h_.untyped()));
    }
    bool contains(handle_type h_) const noexcept { return stow_genpool_contains(&this->pool_, h_.untyped()); }

    /* Destroys the item h names and frees its slot: h goes stale. False, doing
     * nothing, when h is stale or null. O(1) plus the destructor. */
    bool remove(handle_type h_) noexcept
    {
        if constexpr (!detail::trivially_destructible<T>) {
            T *p_ = get(h_);
            if (p_ == nullptr) {
                return false;
            }
            p_->~T();
        }
        return stow_genpool_remove(&this->pool_, h_.untyped());
    }

    /* The handle of a live item (from get() or iteration), or a null handle
     * when that slot holds no live item. O(1). */
    handle_type handle_of(const T &item_) const noexcept
    {
        return handle_type::from_raw(stow_genpool_handle_of(&this->pool_, &item_).bits);
    }

    /* Destroys every item: every handle goes stale. O(items) for the
     * destructors (none for a trivially destructible T), then the C clear. */
    void clear() noexcept
    {
        this->destroy_live();
        stow_genpool_clear(&this->pool_);
    }

    uint32_t size() const noexcept { return stow_genpool_count(&this->pool_); }
    bool empty() const noexcept { return size() == 0u; }
    static constexpr uint32_t capacity() noexcept { return N; }
    uint32_t retired() const noexcept { return stow_genpool_retired(&this->pool_); }
    stow_stats_t stats() const noexcept
    {
        stow_stats_t s_;
        stow_genpool_stats(&this->pool_, &s_);
        return s_;
    }
    bool check() const noexcept { return stow_genpool_check(&this->pool_); }

    /* Live items in slot order; removing the current one inside the loop is fine. */
    iterator begin() noexcept { return iterator(&this->pool_); }
    iterator end() noexcept { return iterator(); }
    const_iterator begin() const noexcept { return const_iterator(&this->pool_); }
    const_iterator end() const noexcept { return const_iterator(); }

    /* Live items with their handles, in slot order:
     *     for (auto [h, item] : pool.items()) { ... }   // h: handle_type, item: T &
     * The fast walk of stow/genpool.h (STOW_GENPOOL_FOREACH) in line, plus a
     * load for the handle: as fast as the C walk per item (make bench-cxx).
     * Its rules are the walk's: the body may remove the item it is on, and
     * nothing else (removing another item, or clear(), inside the loop is a
     * contract violation that level 2 reports); items emplaced inside the loop
     * may or may not be visited. */
    using items_iterator = detail::genpool_items_iterator<handle_type, T>;
    using const_items_iterator = detail::genpool_items_iterator<handle_type, const T>;
    detail::items_range<items_iterator, stow_genpool_t> items() noexcept
    {
        return detail::items_range<items_iterator, stow_genpool_t>(&this->pool_);
    }
    detail::items_range<const_items_iterator, stow_genpool_t> items() const noexcept
    {
        return detail::items_range<const_items_iterator, stow_genpool_t>(&this->pool_);
    }

    /* The C pool, for the C API (stow/genpool.h). */
    stow_genpool_t &native() noexcept { return this->pool_; }
    const stow_genpool_t &native() const noexcept { return this->pool_; }
};

/* ------------------------------------------------------------------ slotmap */

namespace detail {

template <class T, uint32_t N, unsigned IndexBits, class Where> class slotmap_base {
  public:
    static constexpr size_t bytes = STOW_SLOTMAP_BYTES(sizeof(T), alignof(T), N);
    static constexpr size_t tables = STOW__SLOTMAP_TABLES(sizeof(T), alignof(T), N);
    static constexpr size_t storage_bytes = bytes;
    static constexpr size_t storage_align = STOW_SLOTMAP_ALIGN(alignof(T));

  protected:
    static_assert(IndexBits >= 1u && IndexBits <= 30u, STOW_HPP_INDEX_BITS("slotmap"));
    static_assert(fits_default<N, IndexBits>, STOW_HPP_CAPACITY_DEFAULT("slotmap"));
    static_assert(fits_own<N, IndexBits>, STOW_HPP_CAPACITY_OWN("slotmap"));
    static_assert(STOW__FITS_SIZE(N, STOW__SLOTMAP_STRIDE(sizeof(T), alignof(T)) + 8u, 3u),
                  "stow::slotmap: the storage does not fit in size_t");

    stow_slotmap_t map_; /* first: the object's address is the C map's */
    storage<Where, bytes, storage_align> mem_;

    constexpr slotmap_base() noexcept : slotmap_base(mem_.bytes) { static_assert(is_in_object<Where>, STOW_HPP_IN_BSS); }
    /* What STOW_SLOTMAP_DEFINE_TYPED_BITS builds (stow/slotmap.h). */
    constexpr explicit slotmap_base(unsigned char *at_) noexcept
        : map_{0u,
               0u,
               0u,
               at_ + tables + sizeof(uint32_t) * N,
               at_,
               STOW__SLOTMAP_STRIDE(sizeof(T), alignof(T)),
               at_ + tables,
               sizeof(T),
               0u,
               N,
               0u,
               0u,
               config,
               0u,
               STOW__HANDLE_MASK_OF(IndexBits)},
          mem_(at_)
    {
    }

    /* stow_slotmap_data() and stow_slotmap_count() without the calls: the
     * fields they return, read inline, so that a loop over the items is a
     * plain loop. */
    T *items_data() const noexcept { return static_cast<T *>(static_cast<void *>(map_.items)); }
    uint32_t count() const noexcept { return map_.count; }
    /* stow_slotmap_handle_at() without the call: the handle's bits of the item
     * at position p_ (below count), as slotmap.c makes them. */
    uint32_t handle_bits_at(uint32_t p_) const noexcept
    {
        return sparse_word(static_cast<const uint32_t *>(map_.sparse), static_cast<const uint32_t *>(map_.dense)[p_]) ^ p_;
    }

  public:
    /* The sparse word of the index in a dense word, whose dead mark (bit 31)
     * the byte offset drops, taken modulo 2^32 (indices use at most 30 bits):
     * saves clearing the mark first, as slotmap.c does. */
    static uint32_t sparse_word(const uint32_t *sparse_, uint32_t dense_word_) noexcept
    {
        const unsigned char *at_ = static_cast<const unsigned char *>(static_cast<const void *>(sparse_));
        uint32_t offset_ = dense_word_ << 2; /* in 32 bits: the mark is shifted out */
        return *static_cast<const uint32_t *>(static_cast<const void *>(at_ + offset_));
    }

  protected:
    void destroy_live() noexcept
    {
        if constexpr (!trivially_destructible<T>) {
            T *p_ = items_data();
            for (uint32_t i_ = 0, n_ = count(); i_ < n_; i_++) {
                p_[i_].~T();
            }
        }
    }
    void destroy_items() noexcept
    {
        destroy_live();
        unpoison(mem_.bytes, bytes);
    }

    template <class F> static void destroy_with(void *item_, void *ctx_)
    {
        T *t_ = static_cast<T *>(item_);
        (*static_cast<F *>(ctx_))(*t_);
        t_->~T();
    }
    static void destroy_only(void *item_, void *) { static_cast<T *>(item_)->~T(); }
};

/* A slot map's items with their handles, in packed order: position p's item
 * and its handle, stow_slotmap_handle_at()'s, read in line. */
template <class Handle, class V, class Base> class slotmap_items_iterator {
  public:
    explicit slotmap_items_iterator(const stow_slotmap_t *m_) noexcept
        : items_(static_cast<V *>(static_cast<void *>(m_->items))), dense_(static_cast<const uint32_t *>(m_->dense)),
          sparse_(static_cast<const uint32_t *>(m_->sparse)), pos_(0u), end_(m_->count)
    {
    }
    handle_and_item<Handle, V> operator*() const noexcept
    {
        return handle_and_item<Handle, V>{Handle::from_raw(Base::sparse_word(sparse_, dense_[pos_]) ^ pos_),
                                          items_[pos_]};
    }
    slotmap_items_iterator &operator++() noexcept
    {
        pos_++;
        return *this;
    }
    friend bool operator!=(const slotmap_items_iterator &it_, items_end) noexcept { return it_.pos_ != it_.end_; }
    friend bool operator==(const slotmap_items_iterator &it_, items_end) noexcept { return it_.pos_ == it_.end_; }

  private:
    V *items_;
    const uint32_t *dense_;
    const uint32_t *sparse_;
    uint32_t pos_;
    uint32_t end_;
};

} // namespace detail

/* A slot map (stow/slotmap.h): N items packed at [0, size()) behind handles that
 * follow them when they move and go stale when they are removed; deferred
 * destruction with mark_dead() and refresh(). Tag makes the handle type differ
 * between slot maps of the same T and N; IndexBits is how many low bits of its
 * handles hold the index (the rest hold the generation; see "Handles" above). */
template <class T, uint32_t N, class Tag = void, unsigned IndexBits = STOW_HANDLE_INDEX_BITS,
          class Where = in_object>
class slotmap : private detail::destructor<detail::slotmap_base<T, N, IndexBits, Where>,
                                           !detail::needs_destructor<T>> {
    using base = detail::slotmap_base<T, N, IndexBits, Where>;

  public:
    using value_type = T;
    using handle_type = handle<slotmap>;
    using iterator = T *;
    using const_iterator = const T *;
    static constexpr unsigned index_bits = IndexBits;
    using base::storage_align;
    using base::storage_bytes;

    constexpr slotmap() noexcept = default;
    /* STOW_CXX_DEFINE's: the storage is at (storage_bytes, aligned to storage_align). */
    constexpr explicit slotmap(unsigned char *at_) noexcept
        : detail::destructor<base, !detail::needs_destructor<T>>(at_)
    {
    }

    /* A T constructed from args at the end, and its handle; a null handle
     * (counting a fail) when the map is full. O(1) plus the C alloc's zeroing
     * of the item, plus the constructor. Items do not move. If the constructor
     * throws, the position goes back (stow_slotmap_cancel) before the exception
     * goes on: the map is as it was, down to the handle the next emplace gives
     * (strong guarantee; only the peak statistic may count the attempt). */
    template <class... Args> handle_type emplace(Args &&...args_)
    {
        stow_handle_t h_;
        void *p_ = stow_slotmap_alloc(&this->map_, &h_);
        if (p_ != nullptr) {
            detail::construct_in_zeroed<T>(
                p_, [this, h_] { (void)stow_slotmap_cancel(&this->map_, h_); },
                detail::forward<Args>(args_)...);
        }
        return handle_type::from_raw(h_.bits);
    }

    /* A copy of item at the end: the C insert (a byte copy) for a trivially
     * copyable T, the copy constructor for any other. */
    handle_type insert(const T &item_)
    {
        if constexpr (detail::trivially_copyable<T>) {
            return handle_type::from_raw(stow_slotmap_insert(&this->map_, &item_).bits);
        } else {
            return emplace(item_);
        }
    }

    /* The item h names (dead-marked or not), or nullptr when h is stale or
     * null. Valid until the next remove, refresh or clear. O(1). */
    T *get(handle_type h_) noexcept { return static_cast<T *>(stow_slotmap_get(&this->map_, h_.untyped())); }
    const T *get(handle_type h_) const noexcept
    {
        return static_cast<const T *>(stow_slotmap_get(&this->map_, h_.untyped()));
    }
    bool contains(handle_type h_) const noexcept { return stow_slotmap_contains(&this->map_, h_.untyped()); }

    /* Destroys the item h names; the last item moves into its place (its
     * handle follows), h goes stale. False, doing nothing, when h is stale or
     * null. O(1) plus the destructor; a relocatable T moves by its bytes (the C
     * remove), any other T through a temporary with its move constructor. */
    bool remove(handle_type h_) noexcept
    {
        if constexpr (detail::trivially_destructible<T> && relocatable<T>::value) {
            return stow_slotmap_remove(&this->map_, h_.untyped());
        } else {
            T *p_ = get(h_);
            if (p_ == nullptr) {
                return false;
            }
            if constexpr (relocatable<T>::value) {
                p_->~T();
                return stow_slotmap_remove(&this->map_, h_.untyped());
            } else {
                T *last_ = this->items_data() + (this->count() - 1u);
                if (p_ == last_) {
                    p_->~T();
                    return stow_slotmap_remove(&this->map_, h_.untyped());
                }
                T moved_(detail::move(*last_));
                last_->~T();
                p_->~T();
                (void)stow_slotmap_remove(&this->map_, h_.untyped()); /* copies dead bytes into p */
                ::new (detail::place, p_) T(detail::move(moved_));
                return true;
            }
        }
    }

    /* Deferred destruction (stow/slotmap.h): a dead-marked item stays readable
     * and in place until refresh(). */
    bool mark_dead(handle_type h_) noexcept { return stow_slotmap_mark_dead(&this->map_, h_.untyped()); }
    bool is_dead(handle_type h_) const noexcept { return stow_slotmap_is_dead(&this->map_, h_.untyped()); }
    uint32_t dead_count() const noexcept { return stow_slotmap_dead_count(&this->map_); }

    /* Destroys every dead-marked item, in position order: on_destroy(item)
     * first (any callable taking T &; it must not call this map), then the
     * destructor; then the survivors close the gaps, keeping their order and
     * their handles. Returns how many were destroyed. O(size()).
     * The survivors move by their bytes: T must be relocatable. */
    template <class F> uint32_t refresh(F &&on_destroy_)
    {
        static_assert(relocatable<T>::value,
                      "stow::slotmap::refresh moves the surviving items by their bytes to close the "
                      "gaps, and T is not trivially copyable. If copying a T's bytes to another "
                      "address and forgetting the original is a correct move for T (no pointer into "
                      "itself, its address kept nowhere), declare it: template <> struct "
                      "stow::relocatable<T> { static constexpr bool value = true; }; otherwise "
                      "remove() items one by one, or keep them in a stow::genpool, whose items never "
                      "move.");
        using F0 = typename detail::remove_ref<F>::type;
        return stow_slotmap_refresh(&this->map_, &base::template destroy_with<F0>,
                                    const_cast<void *>(static_cast<const void *>(&on_destroy_)));
    }
    /* (A template, so that it is compiled only where it is called: an
     * explicit instantiation of a slot map of a T that is not relocatable
     * compiles.) */
    template <int Unused = 0> uint32_t refresh()
    {
        static_assert(relocatable<T>::value,
                      "stow::slotmap::refresh moves the surviving items by their bytes to close the "
                      "gaps, and T is not trivially copyable. If copying a T's bytes to another "
                      "address and forgetting the original is a correct move for T (no pointer into "
                      "itself, its address kept nowhere), declare it: template <> struct "
                      "stow::relocatable<T> { static constexpr bool value = true; }; otherwise "
                      "remove() items one by one, or keep them in a stow::genpool, whose items never "
                      "move.");
        if constexpr (detail::trivially_destructible<T>) {
            return stow_slotmap_refresh(&this->map_, nullptr, nullptr);
        } else {
            return stow_slotmap_refresh(&this->map_, &base::destroy_only, nullptr);
        }
    }

    /* Destroys every item (dead-marked ones too, without a callback): every
     * handle goes stale. O(size()). */
    void clear() noexcept
    {
        this->destroy_live();
        stow_slotmap_clear(&this->map_);
    }

    /* The handle of the item at position i (below size()). */
    handle_type handle_at(uint32_t i_) const noexcept
    {
        return handle_type::from_raw(stow_slotmap_handle_at(&this->map_, i_).bits);
    }

    /* The handle of an item of this map (from get(), data() or iteration), or
     * a null handle when its position is at or beyond size() (an item removed
     * or refreshed away, whose memory the map keeps). O(1), in line: no
     * division (the position is a pointer difference).
     * Contract violation (a null handle): item is not an item of this map
     * (outside its storage, or inside an item). */
    handle_type handle_of(const T &item_) const noexcept
    {
        uintptr_t off_ = reinterpret_cast<uintptr_t>(&item_) - reinterpret_cast<uintptr_t>(this->items_data());
        if (STOW_HPP_VIOLATED(off_ < static_cast<uintptr_t>(N) * sizeof(T) && off_ % sizeof(T) == 0u,
                              "stow::slotmap::handle_of: item is not an item of this map")) {
            return handle_type();
        }
        uint32_t pos_ = static_cast<uint32_t>(off_ / sizeof(T));
        return pos_ < this->count() ? handle_type::from_raw(this->handle_bits_at(pos_)) : handle_type();
    }

    /* Items with their handles, in packed order:
     *     for (auto [h, item] : map.items()) { ... }   // h: handle_type, item: T &
     * A plain loop over data() that also reads each item's handle from the
     * tables, in line (two loads): make bench-cxx compares it with the C loop
     * over stow_slotmap_handle_at(). Dead-marked items are visited. As with any
     * loop over data(), the body must not remove, emplace, refresh or clear
     * (items move): mark_dead() is the way to end items in the loop. */
    using items_iterator = detail::slotmap_items_iterator<handle_type, T, base>;
    using const_items_iterator = detail::slotmap_items_iterator<handle_type, const T, base>;
    detail::items_range<items_iterator, stow_slotmap_t> items() noexcept
    {
        return detail::items_range<items_iterator, stow_slotmap_t>(&this->map_);
    }
    detail::items_range<const_items_iterator, stow_slotmap_t> items() const noexcept
    {
        return detail::items_range<const_items_iterator, stow_slotmap_t>(&this->map_);
    }

    /* The items, packed: data()[0, size()). Dead-marked ones included. */
    T *data() noexcept { return this->items_data(); }
    const T *data() const noexcept { return this->items_data(); }
    uint32_t size() const noexcept { return this->count(); }
    bool empty() const noexcept { return size() == 0u; }
    static constexpr uint32_t capacity() noexcept { return N; }
    uint32_t retired() const noexcept { return stow_slotmap_retired(&this->map_); }
    stow_stats_t stats() const noexcept
    {
        stow_stats_t s_;
        stow_slotmap_stats(&this->map_, &s_);
        return s_;
    }
    bool check() const noexcept { return stow_slotmap_check(&this->map_); }

    iterator begin() noexcept { return data(); }
    iterator end() noexcept { return data() + size(); }
    const_iterator begin() const noexcept { return data(); }
    const_iterator end() const noexcept { return data() + size(); }

    /* The C map, for the C API (stow/slotmap.h). */
    stow_slotmap_t &native() noexcept { return this->map_; }
    const stow_slotmap_t &native() const noexcept { return this->map_; }
};

/* ------------------------------------------------------------------ packed */

namespace detail {

template <class T, uint32_t N, class Where> class packed_base {
  public:
    static constexpr size_t bytes = static_cast<size_t>(N) * sizeof(T);
    static constexpr size_t storage_bytes = bytes;
    static constexpr size_t storage_align = STOW_PACKED_ALIGN(alignof(T));

  protected:
    static_assert(N >= 1u, "stow::packed: the capacity must be at least 1");
    static_assert(STOW__FITS_SIZE(N, sizeof(T), 0u), "stow::packed: the storage does not fit in size_t");

    stow_packed_t array_; /* first: the object's address is the C array's */
    storage<Where, bytes, storage_align> mem_;

    constexpr packed_base() noexcept : packed_base(mem_.bytes) { static_assert(is_in_object<Where>, STOW_HPP_IN_BSS); }
    /* What STOW_PACKED_DEFINE builds (stow/packed.h). */
    constexpr explicit packed_base(unsigned char *at_) noexcept
        : array_{0u, N, at_, sizeof(T), 0u, 0u, config}, mem_(at_)
    {
    }

    /* stow_packed_data() and stow_packed_count() without the calls (as in
     * slotmap_base). */
    T *items() const noexcept { return static_cast<T *>(static_cast<void *>(array_.items)); }
    uint32_t count() const noexcept { return array_.count; }

    void destroy_live() noexcept
    {
        if constexpr (!trivially_destructible<T>) {
            T *p_ = items();
            for (uint32_t i_ = 0, n_ = count(); i_ < n_; i_++) {
                p_[i_].~T();
            }
        }
    }
    void destroy_items() noexcept
    {
        destroy_live();
        unpoison(mem_.bytes, bytes);
    }
};

} // namespace detail

/* A packed array (stow/packed.h): up to N items at [0, size()), no holes;
 * removal moves the last item into the gap. */
template <class T, uint32_t N, class Where = in_object>
class packed : private detail::destructor<detail::packed_base<T, N, Where>, !detail::needs_destructor<T>> {
    using base = detail::packed_base<T, N, Where>;

  public:
    using value_type = T;
    using iterator = T *;
    using const_iterator = const T *;
    using base::storage_align;
    using base::storage_bytes;

    constexpr packed() noexcept = default;
    /* STOW_CXX_DEFINE's: the storage is at (storage_bytes, aligned to storage_align). */
    constexpr explicit packed(unsigned char *at_) noexcept
        : detail::destructor<base, !detail::needs_destructor<T>>(at_)
    {
    }

    /* A T constructed from args at the end, or nullptr (counting a fail) when
     * the array is full. O(1) plus the C push's zeroing, plus the constructor.
     * If the constructor throws, the place goes back before the exception goes
     * on: the array is as it was (strong guarantee; only the peak statistic may
     * count the attempt). */
    template <class... Args> T *emplace_back(Args &&...args_)
    {
        void *p_ = stow_packed_push(&this->array_);
        if (p_ == nullptr) {
            return nullptr;
        }
        return detail::construct_in_zeroed<T>(
            p_, [this] { stow_packed_remove_at(&this->array_, this->array_.count - 1u); },
            detail::forward<Args>(args_)...);
    }
    T *push_back(const T &item_) { return emplace_back(item_); }

    /* Destroys the item at index; the last item moves into index. O(1) plus the
     * destructor; a relocatable T moves by its bytes (the C remove_at), any
     * other T with its move constructor. Contract violation (nothing happens):
     * index >= size(). */
    void remove_at(uint32_t index_) noexcept
    {
        if constexpr (detail::trivially_destructible<T> && relocatable<T>::value) {
            stow_packed_remove_at(&this->array_, index_);
        } else {
            uint32_t n_ = this->count();
            if (STOW_HPP_VIOLATED(index_ < n_, "stow::packed::remove_at: index is not below the count")) {
                return;
            }
            T *p_ = this->items();
            p_[index_].~T();
            if constexpr (relocatable<T>::value) {
                stow_packed_remove_at(&this->array_, index_);
            } else {
                if (index_ != n_ - 1u) {
                    ::new (detail::place, p_ + index_) T(detail::move(p_[n_ - 1u]));
                    p_[n_ - 1u].~T();
                }
                stow_packed_remove_at(&this->array_, n_ - 1u); /* the last: nothing moves */
            }
        }
    }

    /* Destroys every item. O(size()) for the destructors. */
    void clear() noexcept
    {
        this->destroy_live();
        stow_packed_clear(&this->array_);
    }

    /* The item at index, or nullptr (a contract violation) when index >= size(). */
    T *at(uint32_t index_) noexcept { return static_cast<T *>(stow_packed_at(&this->array_, index_)); }
    const T *at(uint32_t index_) const noexcept
    {
        return static_cast<const T *>(stow_packed_at(&this->array_, index_));
    }
    /* Unchecked, as an array's. */
    T &operator[](uint32_t index_) noexcept { return this->items()[index_]; }
    const T &operator[](uint32_t index_) const noexcept { return this->items()[index_]; }

    T *data() noexcept { return this->items(); }
    const T *data() const noexcept { return this->items(); }
    uint32_t size() const noexcept { return this->count(); }
    bool empty() const noexcept { return size() == 0u; }
    static constexpr uint32_t capacity() noexcept { return N; }
    stow_stats_t stats() const noexcept
    {
        stow_stats_t s_;
        stow_packed_stats(&this->array_, &s_);
        return s_;
    }
    bool check() const noexcept { return stow_packed_check(&this->array_); }

    iterator begin() noexcept { return data(); }
    iterator end() noexcept { return data() + size(); }
    const_iterator begin() const noexcept { return data(); }
    const_iterator end() const noexcept { return data() + size(); }

    /* The C array, for the C API (stow/packed.h). */
    stow_packed_t &native() noexcept { return this->array_; }
    const stow_packed_t &native() const noexcept { return this->array_; }
};

/* ------------------------------------------------------------------ arena */

namespace detail {

template <class T>
inline constexpr bool arena_type_ok = trivially_destructible<T>;

#define STOW_HPP_ARENA_DESTRUCTORS                                                                  \
    "stow::arena never runs destructors: rewind() and reset() give back every byte at once, "    \
    "whatever lives there. Make only trivially destructible types in an arena; keep a T with a " \
    "destructor in a stow::pool, genpool, slotmap, packed array or heap, which destroy their items."

/* A constructor that may throw: the arena is marked first, and rewound to the
 * mark if it does (strong guarantee). Otherwise no mark is taken. */
template <class T, class... Args> T *arena_make(stow_arena_t *a_, Args &&...args_)
{
    static_assert(arena_type_ok<T>, STOW_HPP_ARENA_DESTRUCTORS);
    if constexpr (sizeof...(Args) == 0 && trivially_default_constructible<T>) {
        return static_cast<T *>(stow_arena_alloc_zeroed(a_, sizeof(T), alignof(T))); /* value-initialised */
    } else if constexpr (may_throw<T, Args...>) {
        stow_arena_mark_t m_ = stow_arena_mark(a_);
        void *p_ = stow_arena_alloc(a_, sizeof(T), alignof(T));
        if (p_ == nullptr) {
            return nullptr;
        }
        return construct<T>(p_, [a_, m_] { stow_arena_rewind(a_, m_); }, detail::forward<Args>(args_)...);
    } else {
        void *p_ = stow_arena_alloc(a_, sizeof(T), alignof(T));
        if (p_ == nullptr) {
            return nullptr;
        }
        return ::new (detail::place, p_) T(detail::forward<Args>(args_)...);
    }
}

template <class T> T *arena_make_array(stow_arena_t *a_, size_t n_)
{
    static_assert(arena_type_ok<T>, STOW_HPP_ARENA_DESTRUCTORS);
    if constexpr (may_throw<T>) {
        stow_arena_mark_t m_ = stow_arena_mark(a_);
        T *items_ = static_cast<T *>(stow_arena_alloc_array(a_, n_, sizeof(T), alignof(T)));
        for (size_t i_ = 0; items_ != nullptr && i_ < n_; i_++) {
            construct<T>(items_ + i_, [a_, m_] { stow_arena_rewind(a_, m_); });
        }
        return items_;
    } else {
        /* Zeroed, and n * sizeof(T) checked for overflow (NULL and a fail). */
        void *p_ = stow_arena_alloc_array(a_, n_, sizeof(T), alignof(T));
        if (p_ == nullptr) {
            return nullptr;
        }
        T *items_ = static_cast<T *>(p_);
        if constexpr (!trivially_default_constructible<T>) {
            for (size_t i_ = 0; i_ < n_; i_++) {
                ::new (detail::place, items_ + i_) T();
            }
        }
        return items_;
    }
}

template <size_t Bytes, class Where> class arena_base {
  public:
    static constexpr size_t storage_bytes = Bytes;
    static constexpr size_t storage_align = STOW_DEFAULT_ALIGN;

  protected:
    static_assert(Bytes >= 1u, "stow::arena: the size must be at least 1 byte");

    stow_arena_t arena_; /* first: the object's address is the C arena's */
    storage<Where, Bytes, STOW_DEFAULT_ALIGN> mem_;

    constexpr arena_base() noexcept : arena_base(mem_.bytes) { static_assert(is_in_object<Where>, STOW_HPP_IN_BSS); }
    /* What STOW_ARENA_DEFINE builds (stow/arena.h). */
    constexpr explicit arena_base(unsigned char *at_) noexcept
        : arena_{at_,
                 at_ + Bytes,
                 at_,
                 at_ + Bytes,
                 nullptr,
                 &arena_,
                 &arena_,
                 0u,
                 0u,
                 0u,
#if STOW_CHECK_LEVEL >= 2
                 at_,
#endif
                 config},
          mem_(at_)
    {
    }

    void destroy_items() noexcept { unpoison(mem_.bytes, Bytes); }
};

} // namespace detail

/* A linear allocator over Bytes bytes of its own (stow/arena.h). It hands
 * out memory and takes it all back at once, running no destructors: make<T>()
 * and make_array<T>() accept only trivially destructible types. */
template <size_t Bytes, class Where = in_object>
class arena : private detail::destructor<detail::arena_base<Bytes, Where>, !STOW_HPP_ASAN> {
    using base = detail::arena_base<Bytes, Where>;

  public:
    using base::storage_align;
    using base::storage_bytes;

    constexpr arena() noexcept = default;
    /* STOW_CXX_DEFINE's: the storage is at (storage_bytes, aligned to storage_align). */
    constexpr explicit arena(unsigned char *at_) noexcept : detail::destructor<base, !STOW_HPP_ASAN>(at_) {}

    /* A T constructed from args, or nullptr (counting a fail) when no block of
     * the chain has room. O(1). A constructor that may throw costs a mark
     * first: if it throws, the arena is rewound to it before the exception
     * goes on (strong guarantee). */
    template <class T, class... Args> T *make(Args &&...args_)
    {
        return detail::arena_make<T>(&this->arena_, detail::forward<Args>(args_)...);
    }
    /* n value-initialised T's (zeroed memory; constructed with T() when T's
     * default constructor is not trivial), or nullptr (counting a fail) when
     * n * sizeof(T) overflows or there is no room. n = 0 gives a unique pointer
     * not to be dereferenced. O(n * sizeof(T)). */
    template <class T> T *make_array(size_t n_) { return detail::arena_make_array<T>(&this->arena_, n_); }

    /* Raw bytes (stow_arena_alloc; align 0: STOW_DEFAULT_ALIGN). */
    void *alloc(size_t size_, size_t align_ = 0u) noexcept { return stow_arena_alloc(&this->arena_, size_, align_); }

    stow_arena_mark_t mark() const noexcept { return stow_arena_mark(&this->arena_); }
    void rewind(stow_arena_mark_t m_) noexcept { stow_arena_rewind(&this->arena_, m_); }
    void reset() noexcept { stow_arena_reset(&this->arena_); }
    /* Continue in next (a C arena, or another stow::arena, which must then
     * outlive this one and not be used on its own again) when this one is full. */
    void chain(stow_arena_t &next_) noexcept { stow_arena_chain(&this->arena_, &next_); }
    template <size_t B, class W> void chain(arena<B, W> &next_) noexcept { chain(next_.native()); }

    size_t used() const noexcept { return stow_arena_used(&this->arena_); }
    size_t capacity() const noexcept { return stow_arena_capacity(&this->arena_); }
    stow_stats_t stats() const noexcept
    {
        stow_stats_t s_;
        stow_arena_stats(&this->arena_, &s_);
        return s_;
    }
    bool check() const noexcept { return stow_arena_check(&this->arena_); }

    /* The C arena, for the C API and for arena_scope. */
    stow_arena_t &native() noexcept { return this->arena_; }
    const stow_arena_t &native() const noexcept { return this->arena_; }
};

/* Marks an arena where it is made and rewinds it there when it goes: everything
 * allocated in between (through the scope or the arena) is given back. Scopes
 * nest. Works with a stow::arena and with a C arena (STOW_ARENA_DEFINE). */
class arena_scope {
  public:
    explicit arena_scope(stow_arena_t &a_) noexcept : arena_(&a_), mark_(stow_arena_mark(&a_)) {}
    template <size_t B, class W> explicit arena_scope(arena<B, W> &a_) noexcept : arena_scope(a_.native()) {}
    ~arena_scope() { stow_arena_rewind(arena_, mark_); }
    arena_scope(const arena_scope &) = delete;
    arena_scope &operator=(const arena_scope &) = delete;

    template <class T, class... Args> T *make(Args &&...args_)
    {
        return detail::arena_make<T>(arena_, detail::forward<Args>(args_)...);
    }
    template <class T> T *make_array(size_t n_) { return detail::arena_make_array<T>(arena_, n_); }
    void *alloc(size_t size_, size_t align_ = 0u) noexcept { return stow_arena_alloc(arena_, size_, align_); }
    stow_arena_mark_t mark() const noexcept { return mark_; }

  private:
    stow_arena_t *arena_;
    stow_arena_mark_t mark_;
};

/* ------------------------------------------------------------------ heap */

namespace detail {

template <size_t Bytes, class Where> class heap_base {
  public:
    static constexpr size_t storage_bytes = Bytes;
    static constexpr size_t storage_align = STOW_HEAP_ALIGN;

  protected:
    static_assert(STOW__CAST(uint64_t, Bytes) >= STOW_HEAP_MIN_BYTES,
                  "stow::heap: the size must be at least STOW_HEAP_MIN_BYTES");

    stow_heap_t heap_; /* first: the object's address is the C heap's */
    storage<Where, Bytes, STOW_HEAP_ALIGN> mem_;

    constexpr heap_base() noexcept : heap_base(mem_.bytes) { static_assert(is_in_object<Where>, STOW_HPP_IN_BSS); }
    /* What STOW_HEAP_DEFINE builds (stow/heap.h): laid out at its first use,
     * which sets every size class's list whatever it held (the lists of pages
     * with a free slot must be empty before: alloc's fast path reads them).
     * Here the class lists hold addresses of the object's own words and
     * non-zero words, every element given: a constructor run at run time then
     * stores them one by one, where an object of zeros, or an initializer that
     * lists only some elements, would be filled in bulk by a call to memset (a
     * libc function). A constant initialization is not changed by it: the heap
     * object is initialized data either way. */
    constexpr explicit heap_base(unsigned char *at_) noexcept
        : heap_(defined(at_, make_index_list<STOW__HEAP_SLOT_CLASSES>(), make_index_list<STOW__HEAP_CLASS_WORDS>(),
                        make_index_list<STOW__HEAP_CLASSES>())),
          mem_(at_)
    {
    }

    template <size_t> static constexpr unsigned char *no_page() noexcept { return nullptr; }
    template <size_t... K, size_t... F, size_t... I>
    constexpr stow_heap_t defined(unsigned char *at_, index_list<size_t, K...>, index_list<size_t, F...>,
                                  index_list<size_t, I...>) noexcept
    {
        return stow_heap_t STOW__HEAP_INITIALIZER_TAIL(at_, Bytes, heap_config, 0u, {no_page<K>()...},
                                                       {(F + 1u)...},
                                                       {static_cast<void *>(&heap_.heads[I])...});
    }

    void destroy_items() noexcept { unpoison(mem_.bytes, Bytes); }
};

} // namespace detail

/* A variable-size heap over Bytes bytes of its own (stow/heap.h), with
 * typed helpers. The heap does not know the types of its blocks: destroying the
 * heap runs no destructor of what is left in it. */
template <size_t Bytes, class Where = in_object>
class heap : private detail::destructor<detail::heap_base<Bytes, Where>, !STOW_HPP_ASAN> {
    using base = detail::heap_base<Bytes, Where>;

  public:
    using base::storage_align;
    using base::storage_bytes;

    constexpr heap() noexcept = default;
    /* STOW_CXX_DEFINE's: the storage is at (storage_bytes, aligned to storage_align). */
    constexpr explicit heap(unsigned char *at_) noexcept : detail::destructor<base, !STOW_HPP_ASAN>(at_) {}

    /* A T constructed from args, or nullptr (counting a fail) when no free
     * block can hold it. O(1) plus the constructor. If the constructor throws,
     * the block is freed before the exception goes on (strong guarantee; only
     * the peak statistic may count the attempt). */
    template <class T, class... Args> T *make(Args &&...args_)
    {
        if constexpr (sizeof...(Args) == 0 && detail::trivially_default_constructible<T> &&
                      alignof(T) <= STOW_HEAP_ALIGN) {
            return static_cast<T *>(stow_heap_calloc(&this->heap_, 1u, sizeof(T))); /* value-initialised */
        } else {
            void *p_ = alignof(T) <= STOW_HEAP_ALIGN
                           ? stow_heap_alloc(&this->heap_, sizeof(T))
                           : stow_heap_alloc_aligned(&this->heap_, sizeof(T), alignof(T));
            if (p_ == nullptr) {
                return nullptr;
            }
            return detail::construct<T>(p_, [this, p_] { stow_heap_free(&this->heap_, p_); },
                                        detail::forward<Args>(args_)...);
        }
    }
    /* Destroys *p (from make<T>() of this heap) and frees its block; nullptr
     * is ignored. O(1). */
    template <class T> void destroy(T *p_) noexcept
    {
        if constexpr (!detail::trivially_destructible<T>) {
            if (p_ == nullptr) {
                return;
            }
            p_->~T();
        }
        stow_heap_free(&this->heap_, p_); /* NULL is ignored */
    }

    /* n value-initialised T's, or nullptr (counting a fail) when the size
     * overflows or there is no room; give them back with destroy_array(p).
     * For a T with a destructor the block also keeps n, as new[] does, in
     * array_header<T>() bytes before the items (a size_t, rounded up to T's
     * alignment): destroy_array(p) reads it there. A T without one costs no
     * header. If a constructor throws, the items made so far are destroyed
     * (the last first) and the block freed before the exception goes on. */
    template <class T> T *make_array(size_t n_)
    {
        constexpr size_t header_ = array_header<T>();
        if constexpr (header_ == 0u && detail::trivially_default_constructible<T> &&
                      alignof(T) <= STOW_HEAP_ALIGN) {
            return static_cast<T *>(stow_heap_calloc(&this->heap_, n_, sizeof(T))); /* value-initialised */
        } else {
            if (n_ > (SIZE_MAX - header_) / sizeof(T)) { /* calloc's overflow check: NULL, counted as a fail */
                return static_cast<T *>(stow_heap_calloc(&this->heap_, SIZE_MAX, 2u));
            }
            size_t size_ = header_ + n_ * sizeof(T);
            void *p_ = alignof(T) <= STOW_HEAP_ALIGN ? stow_heap_alloc(&this->heap_, size_)
                                                     : stow_heap_alloc_aligned(&this->heap_, size_, alignof(T));
            if (p_ == nullptr) {
                return nullptr;
            }
            unsigned char *block_ = static_cast<unsigned char *>(p_);
            if constexpr (header_ != 0u) {
                *static_cast<size_t *>(p_) = n_;
            }
            T *items_ = static_cast<T *>(static_cast<void *>(block_ + header_));
            for (size_t i_ = 0; i_ < n_; i_++) {
                detail::construct<T>(items_ + i_, [this, items_, i_, p_] {
                    for (size_t k_ = i_; k_ > 0u; k_--) {
                        items_[k_ - 1u].~T();
                    }
                    stow_heap_free(&this->heap_, p_);
                });
            }
            return items_;
        }
    }
    /* Destroys the n items make_array<T>() made at p (the last first) and
     * frees its block; nullptr is ignored. O(n). The count is the one the
     * block keeps (for a T with a destructor; a T without one needs none).
     * Contract violation (nothing happens): p is not from make_array<T>() of
     * this heap (level 1 checks that the block holds the count it says). */
    template <class T> void destroy_array(T *p_) noexcept
    {
        constexpr size_t header_ = array_header<T>();
        if constexpr (header_ == 0u) {
            stow_heap_free(&this->heap_, p_); /* NULL is ignored */
        } else if (p_ != nullptr) {
            void *block_ = static_cast<unsigned char *>(static_cast<void *>(p_)) - header_;
#if STOW_CHECK_LEVEL >= 1
            /* A block of this heap (else usable_size reports it), holding n items. */
            size_t usable_ = stow_heap_usable_size(&this->heap_, block_);
            if (usable_ == 0u) {
                return;
            }
            if (STOW_HPP_VIOLATED(usable_ >= header_ &&
                                      (usable_ - header_) / sizeof(T) >= *static_cast<const size_t *>(block_),
                                  "stow::heap::destroy_array: pointer is not from make_array of this heap")) {
                return;
            }
#endif
            size_t n_ = *static_cast<const size_t *>(block_);
            for (size_t i_ = n_; i_ > 0u; i_--) {
                p_[i_ - 1u].~T();
            }
            stow_heap_free(&this->heap_, block_);
        }
    }
    /* The same, with the count as well (as before destroy_array(p) was there):
     * a contract violation (nothing happens) when n is not the count the block
     * keeps, for a T with a destructor. */
    template <class T> void destroy_array(T *p_, size_t n_) noexcept
    {
        if constexpr (array_header<T>() != 0u) {
            if (p_ != nullptr &&
                STOW_HPP_VIOLATED(*static_cast<const size_t *>(static_cast<const void *>(
                                      static_cast<const unsigned char *>(static_cast<const void *>(p_)) -
                                      array_header<T>())) == n_,
                                  "stow::heap::destroy_array: n is not the count make_array made")) {
                return;
            }
        }
        (void)n_;
        destroy_array(p_);
    }
    /* The bytes make_array<T>() keeps before its items: 0 for a trivially
     * destructible T, else a size_t rounded up to alignof(T). */
    template <class T> static constexpr size_t array_header() noexcept
    {
        return detail::trivially_destructible<T> ? 0u : detail::round_up(sizeof(size_t), alignof(T));
    }

    /* The C calls, on this heap's storage. */
    void *alloc(size_t size_) noexcept { return stow_heap_alloc(&this->heap_, size_); }
    void *alloc_aligned(size_t size_, size_t align_) noexcept
    {
        return stow_heap_alloc_aligned(&this->heap_, size_, align_);
    }
    void *calloc(size_t n_, size_t size_) noexcept { return stow_heap_calloc(&this->heap_, n_, size_); }
    void *realloc(void *p_, size_t size_) noexcept { return stow_heap_realloc(&this->heap_, p_, size_); }
    void free(void *p_) noexcept { stow_heap_free(&this->heap_, p_); }
    size_t usable_size(const void *p_) const noexcept { return stow_heap_usable_size(&this->heap_, p_); }
    size_t largest_free() const noexcept { return stow_heap_largest_free(&this->heap_); }
    stow_stats_t stats() const noexcept
    {
        stow_stats_t s_;
        stow_heap_stats(&this->heap_, &s_);
        return s_;
    }
    bool check() const noexcept { return stow_heap_check(&this->heap_); }

    stow_heap_t &native() noexcept { return this->heap_; }
    const stow_heap_t &native() const noexcept { return this->heap_; }
};

/* ------------------------------------------------------------------ globals */

namespace detail {
/* A container type made in_bss, and its kind for the report (stow/report.h). */
template <class C> struct global_of;
#if STOW__REGISTRY
#define STOW_HPP_KIND(kind) \
    static constexpr const stow_registry_kind_t *registry_kind() noexcept { return &stow_registry_kind_##kind; }
#else
#define STOW_HPP_KIND(kind)
#endif
template <class T, uint32_t N> struct global_of<pool<T, N, in_object>> {
    using type = pool<T, N, in_bss>;
    STOW_HPP_KIND(pool)
};
template <class T, uint32_t N, class Tag, unsigned B> struct global_of<genpool<T, N, Tag, B, in_object>> {
    using type = genpool<T, N, Tag, B, in_bss>;
    STOW_HPP_KIND(genpool)
};
template <class T, uint32_t N, class Tag, unsigned B> struct global_of<slotmap<T, N, Tag, B, in_object>> {
    using type = slotmap<T, N, Tag, B, in_bss>;
    STOW_HPP_KIND(slotmap)
};
template <class T, uint32_t N> struct global_of<packed<T, N, in_object>> {
    using type = packed<T, N, in_bss>;
    STOW_HPP_KIND(packed)
};
template <size_t Bytes> struct global_of<arena<Bytes, in_object>> {
    using type = arena<Bytes, in_bss>;
    STOW_HPP_KIND(arena)
};
template <size_t Bytes> struct global_of<heap<Bytes, in_object>> {
    using type = heap<Bytes, in_bss>;
    STOW_HPP_KIND(heap)
};
} // namespace detail

/* The type STOW_CXX_DEFINE(name, C) gives name: C with its storage in_bss (for
 * an extern declaration in a header: extern stow::global<C> name;). Its
 * handle_type differs from C's. */
template <class C> using global = typename detail::global_of<C>::type;

} // namespace stow

/* STOW_CXX_DEFINE(name, C): defines, at namespace scope, a ready, empty
 * container `name` of type stow::global<C> (C any container type above, e.g.
 * stow::arena<64 << 20> or stow::slotmap<Enemy, 256>), and its storage, as the C
 * DEFINE macros do: an array of C::storage_bytes aligned to C::storage_align in
 * the section .bss.stow.cxx.<name> (NOBITS: RAM only, none of it in the object
 * file, the executable or a flash image; plain .bss with STOW_SECTIONS 0), listed
 * in the registry for stow_report() and make report. The object itself is the C
 * struct and a pointer or two: constant-initialised data (constinit in C++20),
 * ready before any constructor of any file runs. A plain global container
 * (`stow::arena<64 << 20> frame;`) holds its storage inside the object and so is
 * initialised data as a whole: 64 MiB in the executable. Use this one at
 * namespace scope; the plain form for members and locals.
 *     STOW_CXX_DEFINE(frame, stow::arena<64u << 20>);       // 64 MiB of .bss
 *     STOW_CXX_DEFINE(enemies, stow::slotmap<Enemy, 4096>);
 *     extern stow::global<stow::slotmap<Enemy, 4096>> enemies;   // in a header
 * STOW_CXX_DEFINE_STATIC(name, C) makes it file-local; STOW_CXX_DEFINE_IN(sub,
 * name, C) counts it in subsystem sub (stow/report.h: subsystems and budgets).
 * C may hold commas (the last argument takes the rest). Inside a class it is a
 * compile error, as every DEFINE (a member holds its storage inside already).
 * For a T with a destructor the global's destructor runs at exit, as for any
 * C++ global with one (see "Constant initialisation" above). */
#define STOW_CXX_DEFINE(name, ...) STOW_HPP_DEFINE(STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, __VA_ARGS__)
#define STOW_CXX_DEFINE_STATIC(name, ...) \
    STOW_HPP_DEFINE(static STOW__CONSTINIT, STOW__NO_SUBSYSTEM, name, __VA_ARGS__)
#define STOW_CXX_DEFINE_IN(sub, name, ...) \
    STOW_HPP_DEFINE(STOW__CONSTINIT, STOW__SUBSYSTEM(sub), name, __VA_ARGS__)
/* (One more step, so that the subsystem becomes the body's two arguments.) The
 * first declaration makes the macro a compile error inside a class, whose
 * message names the way out (as STOW__FILE_SCOPE_ONLY does for the C DEFINEs,
 * without a double underscore, which clang -Weverything reports in C++). */
#define STOW_HPP_FILE_SCOPE_ONLY \
    extern int stow_CXX_DEFINE_belongs_at_namespace_scope_a_member_holds_its_storage_already
#define STOW_HPP_DEFINE(linkage, sub, name, ...) STOW_HPP_DEFINE_BODY(linkage, sub, name, __VA_ARGS__)
#define STOW_HPP_DEFINE_BODY(linkage, prefix, subname, name, ...)                                \
    STOW_HPP_FILE_SCOPE_ONLY;                                                                    \
    alignas(::stow::global<__VA_ARGS__>::storage_align) STOW__SECTION_IN(prefix, subname, cxx, name) \
    static unsigned char stow_cxx_storage_##name[::stow::global<__VA_ARGS__>::storage_bytes];       \
    linkage ::stow::global<__VA_ARGS__> name(stow_cxx_storage_##name);                               \
    STOW_HPP_REGISTER(subname, name, __VA_ARGS__)
#if STOW__REGISTRY
#define STOW_HPP_REGISTER(subname, name, ...)                                                    \
    static const stow_registry_entry_t stow_cxx_entry_##name = {                                 \
        #name, subname, ::stow::detail::global_of<__VA_ARGS__>::registry_kind(), &(name),         \
        sizeof(stow_cxx_storage_##name), nullptr};                                                   \
    __attribute__((used, section("stow_registry"),                                               \
                   aligned(sizeof(void *)))) static const stow_registry_entry_t *const           \
        stow_cxx_registry_##name = &stow_cxx_entry_##name
#else
#define STOW_HPP_REGISTER(subname, name, ...) extern int stow__registry_unused_##name
#endif

#if defined(STOW_HPP_STD_HASH)
namespace std {
template <class C> struct hash<stow::handle<C>> {
    size_t operator()(stow::handle<C> h_) const noexcept { return h_.raw(); }
};
} // namespace std
#endif

#endif /* STOW_STOW_HPP */
