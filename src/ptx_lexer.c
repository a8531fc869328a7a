/* ptx_lexer.c — PTX text to tokens (see ptx_lexer.h for the token classes). */
#include "ptx_lexer.h"

#include <string.h>

#include "errors.h"

typedef struct {
    const char *text;
    size_t len, pos;
    uint32_t line;
    size_t line_start; /* byte offset where the current line begins */
    const char *name;
} Scanner;

static bool is_ident_start(char c)
{
    return g_ascii_isalpha(c) || c == '_' || c == '$' || c == '%';
}

static bool is_ident_char(char c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '$';
}

static uint32_t col_of(const Scanner *s, size_t pos)
{
    return (uint32_t)(pos - s->line_start) + 1;
}

static GArray *lex_error(Scanner *s, GArray *toks, uint32_t line, uint32_t col,
                         GError **error, const char *what)
{
    g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s:%u:%u: error: %s", s->name, line, col, what);
    g_array_unref(toks);
    return NULL;
}

/* Line ends are LF, CRLF or a bare CR (classic Mac files): each counts once. */
static bool is_line_end(char c) { return c == '\n' || c == '\r'; }

/* Step over the line end at the cursor and start the next line. */
static void newline(Scanner *s)
{
    if (s->text[s->pos] == '\r' && s->pos + 1 < s->len && s->text[s->pos + 1] == '\n')
        s->pos++;
    s->pos++;
    s->line++;
    s->line_start = s->pos;
}

const char *ptx_token_kind_name(TokenKind k)
{
    static const char *const names[] = {"end of file", "identifier", "directive",
                                        "number", "string", "punctuation"};
    return k <= TK_PUNCT ? names[k] : "token";
}

GArray *ptx_lex(const char *text, size_t len, const char *name, GError **error)
{
    Scanner s = {text, len, 0, 1, 0, name};
    GArray *toks = g_array_sized_new(FALSE, FALSE, sizeof(Token), len / 4 + 16);

    if (len > UINT32_MAX - 1) {
        g_set_error(error, WARPSIM_ERROR, WS_ERR_INPUT, "%s: error: file too large", name);
        g_array_unref(toks);
        return NULL;
    }
    while (s.pos < len) {
        char c = text[s.pos];
        if (is_line_end(c)) {
            newline(&s);
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
            s.pos++;
            continue;
        }
        if (c == '/' && s.pos + 1 < len && text[s.pos + 1] == '/') {
            while (s.pos < len && !is_line_end(text[s.pos]))
                s.pos++;
            continue;
        }
        if (c == '/' && s.pos + 1 < len && text[s.pos + 1] == '*') {
            uint32_t l0 = s.line, c0 = col_of(&s, s.pos);
            s.pos += 2;
            for (;;) {
                if (s.pos + 1 >= len) {
                    return lex_error(&s, toks, l0, c0, error, "unterminated comment");
                }
                if (text[s.pos] == '*' && text[s.pos + 1] == '/') {
                    s.pos += 2;
                    break;
                }
                if (is_line_end(text[s.pos])) {
                    newline(&s);
                } else {
                    s.pos++;
                }
            }
            continue;
        }
        /* Old PTX embeds DWARF as "@@DWARF ..." lines: debug data, skipped. */
        if (c == '@' && len - s.pos >= 7 && memcmp(text + s.pos, "@@DWARF", 7) == 0) {
            while (s.pos < len && !is_line_end(text[s.pos]))
                s.pos++;
            continue;
        }

        Token t = {0};
        t.start = (uint32_t)s.pos;
        t.line = s.line;
        t.col = col_of(&s, s.pos);
        if (is_ident_start(c)) {
            size_t p = s.pos + 1;
            for (;;) {
                if (p < len && (is_ident_char(text[p]) || text[p] == '.')) {
                    p++;
                } else if (p + 2 < len && text[p] == ':' && text[p + 1] == ':' &&
                           is_ident_char(text[p + 2])) {
                    p += 2;
                } else {
                    break;
                }
            }
            t.kind = TK_IDENT;
            t.len = (uint32_t)(p - s.pos);
            s.pos = p;
        } else if (c == '.' && s.pos + 1 < len && (g_ascii_isalpha(text[s.pos + 1]) || text[s.pos + 1] == '_')) {
            size_t p = s.pos + 1;
            while (p < len && is_ident_char(text[p]))
                p++;
            t.kind = TK_DIRECTIVE;
            t.len = (uint32_t)(p - s.pos);
            s.pos = p;
        } else if (g_ascii_isdigit(c)) {
            size_t p = s.pos + 1;
            /* hex-like literals (0x, 0f, 0d, 0b) never take an exponent sign */
            bool radix = c == '0' && p < len && strchr("xXfFdDbB", text[p]) != NULL;
            while (p < len) {
                char d = text[p];
                if (is_ident_char(d) || d == '.') {
                    p++;
                } else if ((d == '+' || d == '-') && !radix && (text[p - 1] == 'e' || text[p - 1] == 'E')) {
                    p++;
                } else {
                    break;
                }
            }
            t.kind = TK_NUMBER;
            t.len = (uint32_t)(p - s.pos);
            s.pos = p;
        } else if (c == '"') {
            size_t p = s.pos + 1;
            while (p < len && text[p] != '"' && !is_line_end(text[p])) {
                if (text[p] == '\\' && p + 1 < len && !is_line_end(text[p + 1]))
                    p++;
                p++;
            }
            if (p >= len || text[p] != '"')
                return lex_error(&s, toks, t.line, t.col, error, "unterminated string");
            p++;
            t.kind = TK_STRING;
            t.len = (uint32_t)(p - s.pos);
            s.pos = p;
        } else if (strchr(",;:{}[]()<>+-!@|=", c) != NULL && c != '\0') {
            t.kind = TK_PUNCT;
            t.punct = c;
            t.len = 1;
            s.pos++;
        } else {
            char msg[64];
            if (g_ascii_isprint(c))
                g_snprintf(msg, sizeof msg, "unexpected character '%c'", c);
            else
                g_snprintf(msg, sizeof msg, "unexpected byte 0x%02x", (unsigned)(unsigned char)c);
            return lex_error(&s, toks, t.line, t.col, error, msg);
        }
        g_array_append_val(toks, t);
    }
    Token eof = {0};
    eof.kind = TK_EOF;
    eof.start = (uint32_t)len;
    eof.line = s.line;
    eof.col = col_of(&s, s.pos);
    g_array_append_val(toks, eof);
    return toks;
}
