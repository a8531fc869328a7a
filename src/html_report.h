/* html_report.h — one self-contained HTML page describing a run.
 *
 * Contract: manifest_run() notes each launch it reports
 * (html_report_note_launch: the launch's JSON entry, kept by reference, and
 * what the page needs of the module — its PTX text and the CFGs of its
 * functions, copied); html_report_write() then renders the finished JSON
 * report as one page: per launch the summary, occupancy, warp-state bar
 * chart, memory traffic, the PTX listing as a heat map of warp
 * instructions and stall cycles per line, and each executed function's CFG
 * with IPDOM edges and per-block divergence (τ, δ), drawn as inline SVG.
 * No network: CSS, SVG and a small script are inline; every text from the
 * PTX or the manifest is escaped.  Shown numbers are those of the JSON
 * report (docs/html-report.md says how each is formatted).
 */
#ifndef WARPSIM_HTML_REPORT_H
#define WARPSIM_HTML_REPORT_H

#include <glib.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "module.h"

typedef struct HtmlReport HtmlReport;

HtmlReport *html_report_new(void);
void html_report_free(HtmlReport *h);

/* entry: the launch's object in the report's "launches" (a reference is
 * kept, so keys added later show); m must have its CFGs built. */
void html_report_note_launch(HtmlReport *h, json_t *entry, const Module *m, uint32_t kernel);

/* Renders the page to path.  report: the run's whole JSON report. */
bool html_report_write(const HtmlReport *h, json_t *report, const char *path, GError **error);
/* The page as a string (g_free it). */
char *html_report_render(const HtmlReport *h, json_t *report);

/* Appends text with &, <, >, " and ' escaped (valid in element content and
 * quoted attributes of HTML and SVG); bytes that are not valid UTF-8 and
 * control characters other than tab and newline become U+FFFD. */
void html_escape_append(GString *out, const char *text, gssize len);

#endif
