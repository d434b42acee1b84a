package words

import "strconv"

// Thousands writes n in decimal with a comma between each group of three digits:
// 1,000,000; −12,345; 999. The pages use it for every count (a reader compares
// 3,004 with 194,010 at a glance, not 3004 with 194010).
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return sign + s
	}
	b := make([]byte, 0, len(s)+len(s)/3)
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	b = append(b, s[:head]...)
	for i := head; i < len(s); i += 3 {
		b = append(b, ',')
		b = append(b, s[i:i+3]...)
	}
	return sign + string(b)
}
