"""CSV exports that are safe to open in a spreadsheet: OWASP's CSV-injection guidance, byte for byte.

Owns: ``neutralise_csv``, which copies a CSV file and puts a single quote (``'``) in front of every cell whose
value begins with ``=``, ``+``, ``-``, ``@`` (or their full-width forms ``＝ ＋ － ＠``), a tab or a carriage return
and is not a plain (ASCII) number, so Excel, LibreOffice or Google Sheets show it as text instead of running it
as a formula. Every other byte stays as
Minds sent it: delimiters, quoting, line endings, a byte-order mark and undecodable bytes (UTF-8 with
``surrogateescape``). The delimiter is the one that splits the header into the most fields (comma first). A
quoted cell gets the quote inside its quotes (``"'=1+1"``). The file is streamed in chunks; only the cell
being read is held. Blocking file work: call it off the event loop.
Must not touch: Slack, Minds, the store.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

# OWASP's list, and the full-width forms of its signs (U+FF1D ＝, U+FF0B ＋, U+FF0D －, U+FF20 ＠): spreadsheets
# with East Asian input settings read a cell typed with those as a formula too.
FORMULA_STARTS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
PLAIN_NUMBER = re.compile(r"^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$", re.ASCII)
NEUTRALISER = "'"
CHUNK_BYTES = 64 * 1024
SNIFF_BYTES = 16 * 1024
DELIMITERS = ",;\t|"
ENCODING = "utf-8"
ERRORS = "surrogateescape"  # undecodable bytes round-trip unchanged


def needs_neutralising(value: str) -> bool:
    """True for a cell value a spreadsheet could run as a formula (OWASP's list), plain numbers excepted."""
    return bool(value) and value[0] in FORMULA_STARTS and not PLAIN_NUMBER.match(value)


def _cell_value(raw: str) -> str:
    """A cell's value as a spreadsheet reads it: a quoted cell without its quotes and with ``""`` undoubled."""
    if not raw.startswith('"'):
        return raw
    closing = raw.rfind('"')
    inner = raw[1:closing] if closing > 0 else raw[1:]
    return inner.replace('""', '"')


def neutralise_cell(raw: str) -> str | None:
    """The cell's text as written in the file with the quote added, or None when it is safe as it is."""
    if not needs_neutralising(_cell_value(raw)):
        return None
    return f'"{NEUTRALISER}{raw[1:]}' if raw.startswith('"') else NEUTRALISER + raw


@dataclass
class _Scanner:
    """Splits CSV text into cells and the separators between them, across chunk boundaries."""

    delimiter: str
    changed: int = 0
    _cell: list[str] = field(default_factory=list)
    _quoted: bool = False  # inside a quoted cell's quotes
    _begun: bool = False  # the first character of the file was seen

    def feed(self, text: str) -> str:
        out: list[str] = []
        for char in text:
            if not self._begun:
                self._begun = True
                if char == "\ufeff":  # a byte-order mark is not part of the first cell
                    out.append(char)
                    continue
            if self._quoted:
                self._cell.append(char)
                self._quoted = char != '"'  # a closing quote, or the first of a doubled one
            elif char == '"' and self._opens_quotes():
                self._quoted = True
                self._cell.append(char)
            elif char == self.delimiter or char in "\r\n":  # outside quotes CR and LF end a record
                out.append(self._end_cell())
                out.append(char)
            else:
                self._cell.append(char)
        return "".join(out)

    def _opens_quotes(self) -> bool:
        """A quote at a cell's start opens it; right after its closing quote it is an escaped quote."""
        return not self._cell or (self._cell[0] == '"' and self._cell[-1] == '"')

    def finish(self) -> str:
        return self._end_cell()

    def _end_cell(self) -> str:
        raw = "".join(self._cell)
        self._cell.clear()
        safe = neutralise_cell(raw)
        if safe is None:
            return raw
        self.changed += 1
        return safe


def sniff_delimiter(sample: str) -> str:
    """The delimiter that splits the file's first record (its header) into the most fields; comma on a tie."""

    def fields(delimiter: str) -> int:
        try:
            first = next(csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter), [])
        except csv.Error:
            return 0
        return len(first)

    return max(DELIMITERS, key=fields)  # max keeps the first of equals, and "," comes first


def neutralise_csv(source: Path, target: Path) -> int:
    """Copy ``source`` to ``target`` with formula-like cells neutralised; the number of cells changed."""
    with source.open("rb") as head:
        sample = head.read(SNIFF_BYTES).decode(ENCODING, ERRORS)
    scanner = _Scanner(delimiter=sniff_delimiter(sample))
    decoder = codecs.getincrementaldecoder(ENCODING)(errors=ERRORS)
    with source.open("rb") as reading, target.open("wb") as writing:
        while chunk := reading.read(CHUNK_BYTES):
            writing.write(scanner.feed(decoder.decode(chunk)).encode(ENCODING, ERRORS))
        tail = scanner.feed(decoder.decode(b"", final=True)) + scanner.finish()
        writing.write(tail.encode(ENCODING, ERRORS))
    return scanner.changed
