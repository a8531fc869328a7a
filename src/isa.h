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

/* modifier groups an opcode may accept */
enum {
    MG_ROUND = 1u << 0, MG_FTZ = 1u << 1, MG_SAT = 1u << 2, MG_CC = 1u << 3,
    MG_APPROX = 1u << 4, MG_NANMODE = 1u << 5, MG_NOFTZ = 1u << 6, MG_UNI = 1u << 7,
    MG_MULMODE = 1u << 8, MG_CMP = 1u << 9, MG_BOOL = 1u << 10, MG_TESTP = 1u << 11,
    MG_SHF = 1u << 12, MG_BFIND = 1u << 13, MG_PRMT = 1u << 14, MG_SPACE = 1u << 15,
    MG_TO = 1u << 16, MG_VEC = 1u << 17, MG_NC = 1u << 18, MG_CACHE = 1u << 19,
    MG_SEM = 1u << 20, MG_SCOPE = 1u << 21, MG_FENCE = 1u << 22, MG_ATOM = 1u << 23,
    MG_BAR = 1u << 24, MG_REDOP = 1u << 25, MG_SYNC = 1u << 26, MG_VOTE = 1u << 27,
    MG_SHFL = 1u << 28, MG_MATCH = 1u << 29, MG_IROUND = 1u << 30,
};
/* the last group bit (an enumerator cannot hold it in ISO C) */
#define MG_REDUX (1u << 31)

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
enum { BAR_NONE, BAR_SYNC, BAR_ARRIVE, BAR_RED };
enum { VOTE_ANY = 1, VOTE_ALL, VOTE_UNI, VOTE_BALLOT };
enum { SHFL_UP = 1, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
enum { MATCH_ANY = 1, MATCH_ALL };

/* instruction flags (Insn.flags) */
enum {
    FL_FTZ = 1u << 0, FL_SAT = 1u << 1, FL_SATFINITE = 1u << 2, FL_CC = 1u << 3,
    FL_APPROX = 1u << 4, FL_FULL = 1u << 5, FL_NAN = 1u << 6, FL_UNI = 1u << 7,
    FL_WRAP = 1u << 8, FL_CLAMP = 1u << 9, FL_SHIFTAMT = 1u << 10, FL_TO = 1u << 11,
    FL_NC = 1u << 12, FL_WARP = 1u << 13, FL_SYNC = 1u << 14, FL_ALIGNED = 1u << 15,
};

/* state spaces */
typedef enum {
    SPACE_GENERIC = 0, SPACE_GLOBAL, SPACE_SHARED, SPACE_LOCAL, SPACE_CONST,
    SPACE_PARAM, SPACE_REG, SPACE_COUNT
} PtxSpace;

/* functional-unit and latency classes, for the timing model */
typedef enum {
    UNIT_ARITH, UNIT_INT, UNIT_FP32, UNIT_FP64, UNIT_SFU, UNIT_LSU, UNIT_BRANCH,
    UNIT_BARRIER, UNIT_COUNT
} FuncUnit;
typedef enum {
    LAT_ALU, LAT_MUL, LAT_FMA, LAT_DIV, LAT_SFU, LAT_CVT, LAT_MEM, LAT_ATOM,
    LAT_SHFL, LAT_BRANCH, LAT_BARRIER, LAT_MEMBAR, LAT_COUNT
} LatencyClass;

typedef struct {
    const char *name;
    const char *shape;
    uint8_t min_types, max_types;
    uint32_t type_classes;
    uint32_t modifier_groups;
    FuncUnit unit;
    LatencyClass latency;
    const char *summary;
} OpInfo;

typedef struct {
    uint32_t group;
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
extern const TypeInfo isa_types[PTX_TYPE_COUNT];
extern const SregInfo isa_sregs[SREG_COUNT];
extern const ModInfo isa_mods[];
extern const unsigned isa_mod_count;

/* Lookups take a length so callers can search inside a larger token. */
bool isa_find_op(const char *name, size_t len, PtxOpcode *out);
PtxType isa_find_type(const char *name, size_t len);          /* NONE if not a type */
const ModInfo *isa_find_mod(const char *name, size_t len, uint32_t groups);
bool isa_mod_exists(const char *name, size_t len);             /* in any group */
bool isa_find_sreg(const char *name, size_t len, PtxSreg *out);
const char *isa_space_name(PtxSpace s);

static inline unsigned isa_type_size(PtxType t) { return isa_types[t].size; }
static inline uint32_t isa_type_class(PtxType t) { return isa_types[t].tclass; }
static inline bool isa_type_is_float(PtxType t) { return isa_types[t].tclass == TC_FLOAT; }
static inline bool isa_type_is_signed(PtxType t) { return isa_types[t].tclass == TC_SINT; }
/* the unit an instruction of this opcode and type occupies */
FuncUnit isa_unit_for(PtxOpcode op, PtxType t);

#endif
