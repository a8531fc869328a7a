/* ptx_lexer.h — PTX source text to a flat array of tokens.
 *
 * Contract: ptx_lex() scans a whole file held in memory and returns every
 * token with its 1-based line and column (lines end with LF, CRLF or a bare
 * CR; columns count bytes).  Tokens do not own text: they are
 * (start, len) slices of the caller's buffer, which must outlive them.
 *
 * Token classes:
 *   TK_IDENT      letters, digits, _ $ % and, after the first character, dots
 *                 and `::` (so `%tid.x`, `ld.global.L1::evict_last.f32` and
 *                 `$L__BB0_2` are one token each; the parser splits them);
 *   TK_DIRECTIVE  `.` followed by a name (`.reg`, `.b32`), without further dots;
 *   TK_NUMBER     a digit then letters/digits/dots (`0f3F800000`, `1.5e-3`,
 *                 `0x1fU`); the parser decodes and validates it;
 *   TK_STRING     "..." (the slice includes the quotes);
 *   TK_PUNCT      one of , ; : { } [ ] ( ) < > + - ! @ | = (in `punct`);
 *   TK_EOF        always the last token.
 * Line and block comments and `@@DWARF` lines are skipped.  Errors
 * (unterminated comment or string, stray character) are WS_ERR_INPUT with
 * "name:line:col: error: ...".
 */
#ifndef WARPSIM_PTX_LEXER_H
#define WARPSIM_PTX_LEXER_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { TK_EOF, TK_IDENT, TK_DIRECTIVE, TK_NUMBER, TK_STRING, TK_PUNCT } TokenKind;

typedef struct {
    uint8_t kind;   /* TokenKind */
    char punct;     /* the character for TK_PUNCT, else 0 */
    uint32_t start; /* byte offset in the text */
    uint32_t len;
    uint32_t line, col;
} Token;

/* Returns a GArray of Token (caller frees with g_array_unref) or NULL with
 * *error set.  `name` is used in messages only. */
GArray *ptx_lex(const char *text, size_t len, const char *name, GError **error);

/* Human-readable kind name for messages ("identifier", "number", ...). */
const char *ptx_token_kind_name(TokenKind k);

#endif
