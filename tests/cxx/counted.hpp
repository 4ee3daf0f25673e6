// SPDX-License-Identifier: MIT
// counted.hpp - an item that counts its constructions and destructions and
// knows whether it is alive, for the C++ suites (one set of counts per program,
// which each case resets).
#ifndef STOW_TEST_CXX_COUNTED_HPP
#define STOW_TEST_CXX_COUNTED_HPP

#include "check.hpp"

namespace cxx_test {

struct tally {
    uint32_t constructed;
    uint32_t destroyed;
    uint32_t copies;
    uint32_t moves;
    uint32_t bad; // destroyed twice, or used after destruction, or moved by its bytes
};
inline tally counts;

inline uint32_t live() { return counts.constructed - counts.destroyed; }

inline void reset_counts() { counts = tally{0u, 0u, 0u, 0u, 0u}; }

// Counts its constructions and destructions; knows whether it is alive.
class counted {
  public:
    counted() noexcept : magic_(alive_magic), value_(0) { counts.constructed++; }
    explicit counted(int v) noexcept : magic_(alive_magic), value_(v) { counts.constructed++; }
    counted(int v, int w) noexcept : magic_(alive_magic), value_(v + w) { counts.constructed++; }
    counted(const counted &o) noexcept : magic_(alive_magic), value_(o.value())
    {
        counts.constructed++;
        counts.copies++;
    }
    counted(counted &&o) noexcept : magic_(alive_magic), value_(o.value())
    {
        counts.constructed++;
        counts.moves++;
    }
    counted &operator=(const counted &o) noexcept
    {
        value_ = o.value();
        return *this;
    }
    ~counted()
    {
        if (magic_ != alive_magic) {
            counts.bad++;
        }
        magic_ = dead_magic;
        counts.destroyed++;
    }
    int value() const noexcept
    {
        if (magic_ != alive_magic) {
            counts.bad++;
        }
        return value_;
    }

  private:
    static constexpr uint32_t alive_magic = 0xA11CE5u;
    static constexpr uint32_t dead_magic = 0xDEADu;
    uint32_t magic_;
    int value_;
};

} // namespace cxx_test

using cxx_test::counted;
using cxx_test::counts;
using cxx_test::live;
using cxx_test::reset_counts;

// counted moves correctly by its bytes: let the slot map compact it.
template <> struct stow::relocatable<counted> {
    static constexpr bool value = true;
};

#endif
