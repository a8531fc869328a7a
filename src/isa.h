/* isa.h — the PTX subset as C tables, built from the isa/ definition files.
 *
 * Contract: opcode, type, modifier and special-register enumerations and the
 * lookup functions the decoder uses.  Nothing here knows about modules or
 * execution; the tables are the one place the subset is described.
 */
#ifndef WARPSIM_ISA_H
#define WARPSIM_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* type classes (also used as masks in ptx_ops.def) */
enum {
    TC_BITS = 1u << 0, TC_UINT = 1u << 1, TC_SINT = 1u << 2,
    TC_FLOAT = 1u << 3, TC_HALF = 1u << 4, TC_PRED = 1u << 5,
    TC_PACKED = 1u << 6, /* pairs of 16-bit integers (.u16x2 .s16x2: add, min, max) */
    TC_TF32 = 1u << 7,   /* .tf32: an f32 with 10 mantissa bits, which only cvt writes */
};
#define TC_INT (TC_BITS | TC_UINT | TC_SINT)
#define TC_ANY (TC_INT | TC_FLOAT | TC_HALF | TC_PRED)

typedef enum {
    PTX_TYPE_NONE = 0,
#define PTX_TYPE(id, s, sz, cls) PTX_TYPE_##id,
#include "ptx_types.def"
#undef PTX_TYPE
    PTX_TYPE_COUNT
} PtxType;

typedef enum {
#define PTX_OP(id, ...) OP_##id,
#include "ptx_ops.def"
#undef PTX_OP
    OP_COUNT
} PtxOpcode;

typedef enum {
#define PTX_SREG(id, ...) SREG_##id,
#include "ptx_sregs.def"
#undef PTX_SREG
    SREG_COUNT
} PtxSreg;

/* Modifier groups an opcode may accept: one bit each in a 64-bit mask
 * (ModGroups).  Macros rather than an enum: ISO C enumerators are ints. */
typedef uint64_t ModGroups;
#define MG_ROUND     (UINT64_C(1) << 0)
#define MG_FTZ       (UINT64_C(1) << 1)
#define MG_SAT       (UINT64_C(1) << 2)
#define MG_CC        (UINT64_C(1) << 3)
#define MG_APPROX    (UINT64_C(1) << 4)
#define MG_NANMODE   (UINT64_C(1) << 5)
#define MG_NOFTZ     (UINT64_C(1) << 6)
#define MG_UNI       (UINT64_C(1) << 7)
#define MG_MULMODE   (UINT64_C(1) << 8)
#define MG_CMP       (UINT64_C(1) << 9)
#define MG_BOOL      (UINT64_C(1) << 10)
#define MG_TESTP     (UINT64_C(1) << 11)
#define MG_SHF       (UINT64_C(1) << 12)
#define MG_BFIND     (UINT64_C(1) << 13)
#define MG_PRMT      (UINT64_C(1) << 14)
#define MG_SPACE     (UINT64_C(1) << 15)
#define MG_TO        (UINT64_C(1) << 16)
#define MG_VEC       (UINT64_C(1) << 17)
#define MG_NC        (UINT64_C(1) << 18)
#define MG_CACHE     (UINT64_C(1) << 19)
#define MG_SEM       (UINT64_C(1) << 20)
#define MG_SCOPE     (UINT64_C(1) << 21)
#define MG_FENCE     (UINT64_C(1) << 22)
#define MG_ATOM      (UINT64_C(1) << 23)
#define MG_BAR       (UINT64_C(1) << 24)
#define MG_REDOP     (UINT64_C(1) << 25)
#define MG_SYNC      (UINT64_C(1) << 26)
#define MG_VOTE      (UINT64_C(1) << 27)
#define MG_SHFL      (UINT64_C(1) << 28)
#define MG_MATCH     (UINT64_C(1) << 29)
#define MG_IROUND    (UINT64_C(1) << 30)
#define MG_REDUX     (UINT64_C(1) << 31)
#define MG_RELU      (UINT64_C(1) << 32)
#define MG_MBAR      (UINT64_C(1) << 33)
#define MG_LEVEL     (UINT64_C(1) << 34)
#define MG_VIDEO     (UINT64_C(1) << 35)

/* which Insn field a modifier sets */
typedef enum {
    F_IGNORE, F_ROUND, F_FLAG, F_MUL, F_CMP, F_BOOL, F_MODE, F_SPACE, F_VEC,
    F_CACHE, F_SEM, F_SCOPE, F_ATOM,
} ModField;

enum { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNA, RND_RNI, RND_RZI, RND_RMI, RND_RPI };
enum { MUL_NONE, MUL_LO, MUL_HI, MUL_WIDE };
enum { CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS, CMP_HI, CMP_HS,
       CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN };
enum { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR };
enum { TESTP_FINITE = 1, TESTP_INFINITE, TESTP_NUMBER, TESTP_NOTANUMBER, TESTP_NORMAL, TESTP_SUBNORMAL };
enum { SHF_L = 1, SHF_R };
enum { PRMT_DEFAULT = 0, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 };
enum { CACHE_NONE, CACHE_CA, CACHE_CG, CACHE_CS, CACHE_LU, CACHE_CV, CACHE_WB, CACHE_WT };
enum { SEM_NONE, SEM_VOLATILE, SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL, SEM_SC, SEM_WEAK };
enum { SCOPE_NONE, SCOPE_CTA, SCOPE_CLUSTER, SCOPE_GPU, SCOPE_SYS };
enum { ATOM_NONE, ATOM_ADD, ATOM_MIN, ATOM_MAX, ATOM_INC, ATOM_DEC, ATOM_EXCH, ATOM_CAS,
       ATOM_AND, ATOM_OR, ATOM_XOR, ATOM_POPC };
enum { BAR_NONE, BAR_SYNC, BAR_ARRIVE, BAR_RED, BAR_WAIT /* barrier.cluster.wait */ };
enum { VOTE_ANY = 1, VOTE_ALL, VOTE_UNI, VOTE_BALLOT };
enum { SHFL_UP = 1, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
enum { MATCH_ANY = 1, MATCH_ALL };

/* instruction flags (Insn.flags) */
enum {
    FL_FTZ = 1u << 0, FL_SAT = 1u << 1, FL_SATFINITE = 1u << 2, FL_CC = 1u << 3,
    FL_APPROX = 1u << 4, FL_FULL = 1u << 5, FL_NAN = 1u << 6, FL_UNI = 1u << 7,
    FL_WRAP = 1u << 8, FL_CLAMP = 1u << 9, FL_SHIFTAMT = 1u << 10, FL_TO = 1u << 11,
    FL_NC = 1u << 12, FL_WARP = 1u << 13, FL_SYNC = 1u << 14, FL_ALIGNED = 1u << 15,
    FL_RELU = 1u << 16,      /* results below zero (and NaN) become +0 */
    FL_PARITY = 1u << 17,    /* mbarrier waits: the operand is a phase parity, not a state */
    FL_NOINC = 1u << 18,     /* cp.async.mbarrier.arrive: the arrival was counted at init */
    FL_EXPECT_TX = 1u << 19, /* mbarrier.arrive.expect_tx: add the count to the transaction count first */
    FL_ADD = 1u << 20,       /* video instructions: sum the elements into c */
    FL_NEG_PRODUCT = 1u << 21, /* fma made by contraction (contract.h): -(a * b) + c */
    FL_NEG_ADDEND = 1u << 22,  /* fma made by contraction: a * b - c */
    FL_NOUNROLL = 1u << 23,    /* a statement-level .pragma "nounroll" came before it: ptxas does
                                  not unroll the loop whose header block holds it */
};

/* state spaces */
typedef enum {
    SPACE_GENERIC = 0, SPACE_GLOBAL, SPACE_SHARED, SPACE_LOCAL, SPACE_CONST,
    SPACE_PARAM, SPACE_REG, SPACE_COUNT
} PtxSpace;

/* functional-unit and latency classes, for the timing model */
typedef enum {
    UNIT_ARITH, /* by type: UNIT_INT, UNIT_FP32 or UNIT_FP64 */
#define FUNC_UNIT(id, name, key) UNIT_##id,
#include "func_units.def"
#undef FUNC_UNIT
    UNIT_COUNT
} FuncUnit;
typedef enum {
#define LATENCY_CLASS(id, name, absent, sched) LAT_##id,
#include "latency_classes.def"
#undef LATENCY_CLASS
    LAT_COUNT
} LatencyClass;

/* A row of isa/ptx_latency.def: instructions of opcode op, type type
 * (PTX_TYPE_NONE: any) and scope scope (SCOPE_NONE: any) with every flag
 * of needs take latency. */
typedef struct {
    uint16_t op;        /* PtxOpcode */
    uint8_t type;       /* PtxType */
    uint8_t scope;      /* SCOPE_* */
    uint32_t needs;     /* FL_* */
    LatencyClass latency;
    uint8_t slots;      /* machine instructions the form issues (>= 1) */
    const char *form;   /* which PTX forms, and what the machine code does */
} LatencyRule;

typedef struct {
    const char *name;
    const char *shape;
    uint8_t min_types, max_types;
    uint32_t type_classes;
    ModGroups modifier_groups;
    FuncUnit unit;
    LatencyClass latency;
    const char *summary;
} OpInfo;

typedef struct {
    ModGroups group;
    const char *spelling;
    ModField field;
    uint32_t value;
} ModInfo;

typedef struct {
    const char *spelling;
    uint8_t size;
    uint32_t tclass;
} TypeInfo;

typedef struct {
    const char *name;
    bool vector;
    uint8_t bits;
    const char *meaning;
} SregInfo;

extern const OpInfo isa_ops[OP_COUNT];
/* per functional unit: its name in docs/isa.md */
extern const char *const isa_unit_names[UNIT_COUNT];
/* per latency class: its name (the config key is latency.<name>) and the
 * class a config without that key takes the latency of (itself: required) */
extern const char *const isa_latency_names[LAT_COUNT];
extern const LatencyClass isa_latency_absent[LAT_COUNT];
/* per latency class: the cycles the compiler model's list scheduler
 * assumes (schedule.h) */
extern const uint16_t isa_latency_sched_cycles[LAT_COUNT];
extern const TypeInfo isa_types[PTX_TYPE_COUNT];
extern const SregInfo isa_sregs[SREG_COUNT];
extern const ModInfo isa_mods[];
extern const unsigned isa_mod_count;
extern const LatencyRule isa_latency_rules[];
extern const unsigned isa_latency_rule_count;

/* Lookups take a length so callers can search inside a larger token. */
bool isa_find_op(const char *name, size_t len, PtxOpcode *out);
/* The opcode whose name is the longest dot-separated prefix of s[0..len)
 * (instruction names may contain dots: "cp.async.wait_group" is found
 * before "cp.async"); *used receives the name's length. */
bool isa_find_op_prefix(const char *s, size_t len, PtxOpcode *out, size_t *used);
PtxType isa_find_type(const char *name, size_t len);          /* NONE if not a type */
const ModInfo *isa_find_mod(const char *name, size_t len, ModGroups groups);
bool isa_mod_exists(const char *name, size_t len);             /* in any group */
bool isa_find_sreg(const char *name, size_t len, PtxSreg *out);
const char *isa_space_name(PtxSpace s);
/* An access to space s takes the L1TEX path to L2 (Nsight's "LG": global
 * and local, and generic, which addresses global memory but for the rare
 * shared or local address), not the MIO path of shared, constant and
 * parameter space. */
static inline bool isa_space_is_lg(PtxSpace s)
{
    return s == SPACE_GLOBAL || s == SPACE_LOCAL || s == SPACE_GENERIC;
}

static inline unsigned isa_type_size(PtxType t) { return isa_types[t].size; }
static inline uint32_t isa_type_class(PtxType t) { return isa_types[t].tclass; }
static inline bool isa_type_is_float(PtxType t) { return isa_types[t].tclass == TC_FLOAT; }
static inline bool isa_type_is_signed(PtxType t) { return isa_types[t].tclass == TC_SINT; }
/* the unit an instruction of this opcode and type occupies */
FuncUnit isa_unit_for(PtxOpcode op, PtxType t);
/* The latency class of op with type suffixes t and t2 (cvt's destination
 * and source types), modifier flags (FL_*) and scope (SCOPE_*): the first row of
 * isa/ptx_latency.def that matches, else the op's class in ptx_ops.def,
 * except that cvt between two integer types is LAT_ALU (a move, shift or
 * sign extension in the machine code, not a conversion), and that
 * arithmetic of the alu, mul and fma classes on .f64 is LAT_FP64 (the
 * FP64 pipe's own latency). */
LatencyClass isa_latency_for(PtxOpcode op, PtxType t, PtxType t2, uint32_t flags, unsigned scope);
/* The issue slots of such an instruction: the machine instructions it
 * becomes (its isa/ptx_latency.def row's `slots`), 1 when no row matches. */
uint32_t isa_issue_slots_for(PtxOpcode op, PtxType t, uint32_t flags, unsigned scope);

#endif
