#include "textflag.h"

// func line(p unsafe.Pointer)
TEXT ·line(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func indexed(base unsafe.Pointer, ys *int32, n int, shr, shl uint)
TEXT ·indexed(SB), NOSPLIT|NOFRAME, $0-40
	MOVQ base+0(FP), AX
	MOVQ ys+8(FP), BX
	MOVQ n+16(FP), SI
	MOVQ shr+24(FP), R8
	MOVQ shl+32(FP), R9
loop:
	MOVLQZX (BX), DX
	MOVQ R8, CX
	SHRQ CX, DX
	MOVQ R9, CX
	SHLQ CX, DX
	PREFETCHT0 (AX)(DX*1)
	ADDQ $4, BX
	DECQ SI
	JNZ loop
	RET
