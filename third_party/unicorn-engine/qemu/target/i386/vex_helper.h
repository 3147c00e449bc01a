/*
 * pathvm: helpers of the VEX decoder (vex.c.inc), defined in
 * vex_helper.c.inc.  Included from helper.h.
 */

/* FMA3 forms (the helper's desc) */
#define VEX_FMA_ADDSUB 0x1000
#define VEX_FMA_SUBADD 0x2000
#define VEX_FMA_SCALAR 0x4000
#define VEX_FMA_NEG_C  0x8000
#define VEX_FMA_NEG_P  0x10000

DEF_HELPER_1(vex_fp_begin, void, env)
DEF_HELPER_1(vex_fp_end, void, env)
DEF_HELPER_6(vex_fma, void, env, ZMMReg, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cmpps, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cmppd, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cmpss, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cmpsd, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cvtps2pd, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cvtpd2ps, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cvtdq2pd, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cvtpd2dq, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cvttpd2dq, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cvtph2ps, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_cvtps2ph, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_5(vex_permilps, void, env, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_5(vex_permilpd, void, env, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_5(vex_permps, void, env, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_5(vex_permd, void, env, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_5(vex_psllv, void, env, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_5(vex_psrlv, void, env, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_5(vex_psrav, void, env, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_permq, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_permilps_imm, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_4(vex_permilpd_imm, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_3(vex_pmovx, void, ZMMReg, ZMMReg, i32)
DEF_HELPER_2(vex_movmsk, i32, ZMMReg, i32)
DEF_HELPER_4(vex_ptest, void, env, ZMMReg, ZMMReg, i32)
DEF_HELPER_5(vex_blendv, void, ZMMReg, ZMMReg, ZMMReg, ZMMReg, i32)
DEF_HELPER_3(xsavec, void, env, tl, i64)
DEF_HELPER_3(vex_probe_store, void, env, tl, i32)
DEF_HELPER_2(vex_ldmxcsr, void, env, i32)
DEF_HELPER_5(vex_maskmov, void, env, ZMMReg, ZMMReg, tl, i32)
DEF_HELPER_6(vex_gather, void, env, ZMMReg, ZMMReg, ZMMReg, tl, i32)
