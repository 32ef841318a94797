#include <libpq-fe.h>

/// PG_DIAG_SQLSTATE is a character-literal macro; Swift imports it as a plain constant here.
static const int clibpq_diag_sqlstate = PG_DIAG_SQLSTATE;
/// PG_DIAG_MESSAGE_PRIMARY, likewise.
static const int clibpq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
