
// Third round (appended after float4_more.cu): which common words stop two parts merging.
// Written after the H200 showed overlap1 (one common element) merging.
F4_PROBE(overlap2, 32, (r >> 1) + 2 * (q & 1))          // quarters 0-3 and 2-5: two in common
F4_PROBE(identical2, 32, r & 1)                         // every quarter reads elements 0, 1
F4_PROBE(superset, 32, (q & 1) ? (r >> 1) : (r & 1))    // quarters {0, 1} and {0-3}
F4_PROBE(subset1, 32, (q & 1) ? 0 : (r >> 1))           // quarters {0-3} and {0}
F2_PROBE(overlap1, (r16 >> 1) + 7 * h)                  // halves 0-7 and 7-14: one in common
F2_PROBE(overlap2, (r16 >> 1) + 6 * h)                  // halves 0-7 and 6-13: two in common
