// Package words is how graphdp words counts in messages: "1 vertex", "2 vertices",
// and rates people read at a glance ("584k/s"); counts on the pages with their
// thousands grouped ("1,000,000"); how it prints values from data (Quote); and the
// width texts for people wrap at (Columns, Wrap, Wrapped).
//
// Invariants:
//
//  1. Count(n, one, many) uses the singular exactly when n is 1 (or −1).
//  2. Humane(x) has at most 3 significant digits and an SI suffix (k, M, G, T);
//     it is exact for integers below 1000.
//  3. Quote(v) holds no control character, no invalid UTF-8 and no byte of v past
//     its first 80: a value from data printed with it cannot drive a terminal.
//  4. Thousands(n) is n's decimal digits with a comma before each group of three
//     from the right, and nothing else.
//  5. Wrap and Wrapped (the texts for people: every command's on stderr, report's
//     and verify's on stdout) make lines of at most Columns runes, but for a word
//     longer than that, which stands whole on its line; a line no longer than
//     Columns is left as it is.
package words
