# SPDX-License-Identifier: MIT
# make prove: see docs/proof.md (filled in below).
