# docs/runbook.sh: the operator's runbook, as commands. docs/ceremony.md and README.md quote its
# sections verbatim (each quoted block follows a `<!-- runbook.sh: SECTION -->` line), and
# tests/it/runbook.rs both checks that every quoted block is the section's text and runs every
# section on a SoftHSM token under libfaketime, the placeholders below set to temporary folders
# and real days, every prompt typed at a pseudo-terminal, each command's exit code checked.
#
# Placeholders: set them for the sitting before running a section (every name here is one the
# test sets). Run one command at a time, in front of the commissaire de justice; every prompt
# (the PIN first, then the sitting's) is answered at the appliance's console, never on the
# command line. Any non-zero exit stops the ceremony until understood (README.md, exit codes).
# Not a program to run as a whole: its sections are held at different sittings, in this order.

URNE=urne                                   # the appliance's binary
export URNE_CONFIG=/etc/urne/urne.json      # the configuration (hsm-config/README.md)
export URNE_DB=/var/lib/urne/audit.db       # the audit trail, always this absolute path
PUB=/media/usb                              # the publications medium
SECRET=/media/secret                        # the secret medium for production, apart
EXPORTS=/media/exports                      # production's signed exports, as delivered
BACKUP=/media/backup                        # the trail's backups, kept apart
PRODUCER_KEY=/etc/urne/production.pub.pem   # production's export key (PEM)
RULES=rules/chanceux-noel-2018.json         # the operation's rules
GAME_RULES=rules/noel-de-la-chance-2015.json # the instant game's rules
TODAY=2018-12-11                            # the date of the sitting
SITTING=sitting-002                         # the sitting's folder, as urne ceremony names it
CHECKPOINT=/media/usb/sitting-002/checkpoint.note # the checkpoint the minutes hold
PRICE=100                                   # the blocks' price point, in cents (G-2)
EMISSION=noel-2018                          # the emission whose blocks are generated
BLOCKS=10                                   # how many blocks
BLOCK=noel-de-la-chance-2015/100/noel-2018/1 # a block whose sales have closed
SALES_CLOSED=2018-12-31T23:59:59+01:00      # when they closed, as production states it
DAY=2018-12-08                              # a day drawn alone, one command at a time

# >>> key-ceremony
# The module, the token and its mechanisms, checked by the commissaire (the PIN at the prompt).
"$URNE" hsm info
# The keys generated in the token, the trail created, the public keys exported to $PUB/keys,
# and the key ceremony's signed minutes in $PUB/sitting-001.
"$URNE" ceremony --key-ceremony --producer-key "$PRODUCER_KEY" --out "$PUB"
"$URNE" verify "$PUB/sitting-001" --keys "$PUB/keys"
# <<< key-ceremony

# >>> sitting
# The days the rules schedule for today (D-8), each sealed from production's export and drawn;
# then voids and redraws at the menu; the close writes the minutes into $PUB/sitting-NNN.
"$URNE" ceremony --out "$PUB" --rules "$RULES" --exports "$EXPORTS" \
  --producer-key "$PRODUCER_KEY"
# urne prints the SHA-256 of the minutes to write on the paper copy (sitting.json lists it too).
"$URNE" verify "$PUB/$SITTING" --keys "$PUB/keys"
# <<< sitting

# >>> blocks
# An emission's blocks, at a sitting: the public commitments into $PUB/blocks, the SECRET
# production files onto the secret medium only.
"$URNE" ceremony --out "$PUB" --game-rules "$GAME_RULES" --price "$PRICE" \
  --emission "$EMISSION" --blocks "$BLOCKS" --secret-out "$SECRET/blocks"
# Once a block's sales have closed (production states when, in writing): its reveal.
"$URNE" ceremony --out "$PUB" --reveal "$BLOCK" --sales-closed-at "$SALES_CLOSED"
"$URNE" verify "$PUB/blocks" --keys "$PUB/keys"
# <<< blocks

# >>> end-of-day
# The trail against the audit key of the key ceremony and the checkpoint the minutes hold.
"$URNE" audit verify --audit-key "$PUB/keys/audit.pub.pem" --checkpoint "$CHECKPOINT"
"$URNE" audit export --out "$PUB/audit-$TODAY.jsonl"
"$URNE" verify "$PUB/audit-$TODAY.jsonl" --keys "$PUB/keys" --checkpoint "$CHECKPOINT"
# The whole publications medium, as one history that extends the checkpoint.
"$URNE" verify "$PUB" --keys "$PUB/keys" --checkpoint "$CHECKPOINT"
# The trail backed up at the token's last mark, onto its own medium.
"$URNE" audit backup --out "$BACKUP/audit-$TODAY.db"
# <<< end-of-day

# >>> one-day
# The fallback, one command at a time: a day sealed, drawn, verified (its minutes: pv.html).
"$URNE" seal --rules "$RULES" --producer-key "$PRODUCER_KEY" \
  --entries "$EXPORTS/entries-chanceux-noel-2018-$DAY.jsonl"
"$URNE" draw --day "$DAY" --out "$PUB/draw-$DAY"
"$URNE" verify "$PUB/draw-$DAY" --keys "$PUB/keys"
sha256sum "$PUB/draw-$DAY/pv.html"
# <<< one-day
