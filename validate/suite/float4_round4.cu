
// Fourth round (appended after float4_round3.cu): superset (quarters {0, 1} then {0-3}) did not
// merge while subset1 ({0-3} then {0}) did; does the order of the quarters matter?
F4_PROBE(superset_rev, 32, (q & 1) ? (r & 1) : (r >> 1))     // quarters {0-3} and {0, 1}
F4_PROBE(one_then_two, 32, (q & 1) ? (r & 1) : 0)            // quarters {0} and {0, 1}
F4_PROBE(six_then_two, 32, (q & 1) ? (r & 1) : (r % 6))      // quarters {0-5} and {0, 1}
F4_PROBE(two_then_six, 32, (q & 1) ? (r % 6) : (r & 1))      // quarters {0, 1} and {0-5}
F4_PROBE(three_three, 32, (r % 3) + 3 * (q & 1))             // quarters {0-2} and {3-5}
F4_PROBE(five_then_four, 32, (q & 1) ? 4 + (r & 3) : (r % 5)) // quarters {0-4} and {4-7}
