"""Backing up every league's facts to one JSON file, and restoring it into an empty database.

Words:
- *backup file*: a JSON object ``{"format": "flipwell-backup", "format_version": 1,
  "created_at", "migrations": {"league": [...]}, "tables": [{"model", "rows"}], "checksum"}``.
  Each table is one model (``"league.game"``); each row is ``{"pk", "fields"}`` as Django's
  Python serializer writes it, with datetimes in full ISO 8601 (microseconds kept).
- *checksum*: ``"sha256:"`` and the SHA-256 (hex) of the *canonical JSON* of every other key
  of the file (keys sorted, no spaces, UTF-8). It finds damage (a truncated copy, a flipped
  bit), not tampering: anybody who edits the file can compute it again. A restore refuses a
  file whose checksum is missing or does not match unless told not to verify it
  (``flipwell restore --no-verify FILE``); backups written before checksums existed restore
  that way.
- *signature*: ``"hmac-sha256:"`` and an HMAC-SHA256 of the canonical JSON of every key but
  the checksum and the signature, keyed by this installation's ``SECRET_KEY`` (Django's
  ``salted_hmac``, salt `SIGNATURE_SALT`; a key in ``SECRET_KEY_FALLBACKS`` verifies too, so
  rotating the key keeps old backups restorable). It proves that this installation wrote the
  file and that nothing in it changed since: someone who edits a ledger amount and computes
  the checksum again cannot compute the signature without the secret key. It proves nothing
  about a file another installation wrote (its key is another): such a file, or one made
  before backups were signed, restores only with ``--trust-unsigned``, which prints what the
  file holds and a warning. Whoever knows the secret key (the server's operator) can sign
  anything; the signature guards the file, not the server.
- *depth*: a backup's JSON is a few levels deep (an audit event's data a few more); a file
  nested deeper than `MAX_DEPTH` is refused before it is read into rows.
- *the tables*: every model of the league app (the stored facts, with their revisions; the
  stored folds, `DerivedResult`, are derived and left out: computed again when read) and
  ``auth.user`` for the *people who act*: the league officials, and every other account a
  fact names (who recorded a score, who made a ruling), so that every reference holds after
  a restore. Of an account only the username, names,
  email and password hash are kept: never permissions, staff or superuser flags, sessions.
  API tokens (`ApiToken`, a league model) are not backed up either, not even their hashes:
  after a restore every token is gone, and the officials issue new ones in the console.
  Nor is the e-mail queue (`Notice`): a restored notice would be sent again. The players'
  choices of notices (`NoticeSubscription`) are kept. Nor are the writes' idempotency keys
  (`IdempotencyKey`): they expire within a day and name tokens that a restore drops.
- *dependency order*: the models sorted so that every model comes after the models its foreign
  keys point to (computed from the models themselves, so a new model needs no list edited).
  Restoring in this order means every referenced row exists when a row is inserted.
- *empty database*: migrated, with no account and no row in any league table.
- *legacy values*: values an older flipwell stored in a field that now stores others (a special
  ruling's kind "major", before migration 0013, is "major_malfunction" now); a restore maps
  them to today's, so an older backup still restores. Likewise a notice subscription of a
  backup made before subscriptions belonged to a league (league migration 0018) is given its
  league as migration 0019 gives a stored one (`subscriptions_to_leagues`), and a special
  ruling of a backup made before rulings belonged to a league (league migration 0031) is
  given its league as that migration gives a stored one (`rulings_to_leagues`).

Restoring only inserts (``bulk_create`` with the stored primary keys), never updates or
deletes: the append-only triggers on the ledger and the audit log (migrations 0002, 0009) stay
satisfied. It trusts no row, signed or not: each must be a row `backup` writes (a known table,
``pk`` and ``fields`` only, no field `backup` does not write, so no superuser flag), with
values its model accepts (the validators the services' writes run, `flipwell.league.validators`)
and no text holding NUL or another control character (a tab and a line break aside); each
row of a league stays in its league as a write keeps it (`check_leagues`: every reference
of a league's row reaches a row of the same league, and every player it names is one of the
league's players); then every restored season is folded by the rules, inside the restore's
transaction, so a file that would restore into a league whose pages fail is refused whole.

The modules: `format` (constants, the models in dependency order, checksum and signature),
`writing` (`write_backup`), `reading` (`read_backup`, `backup_contents`), `restoring`
(`restore_backup`) and `leagues` (a restored row's league, and older backups' rows given one).
"""
