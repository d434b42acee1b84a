#include "textflag.h"

// func line(p unsafe.Pointer)
TEXT ·line(SB), NOSPLIT|NOFRAME, $0-8
	MOVD p+0(FP), R0
	PRFM (R0), PLDL1KEEP
	RET

// func indexed(base unsafe.Pointer, ys *int32, n int, shr, shl uint)
TEXT ·indexed(SB), NOSPLIT|NOFRAME, $0-40
	MOVD base+0(FP), R0
	MOVD ys+8(FP), R1
	MOVD n+16(FP), R2
	MOVD shr+24(FP), R5
	MOVD shl+32(FP), R6
loop:
	MOVWU.P 4(R1), R3
	LSR R5, R3, R3
	LSL R6, R3, R3
	ADD R3, R0, R4
	PRFM (R4), PLDL1KEEP
	SUBS $1, R2, R2
	BNE loop
	RET
