"""Syntax highlighting for the config editor: one style letter per character."""
import lexer
import painter


def highlight(line):
    toks = lexer.tokens(line.rstrip("\n"))
    return painter.paint(line.rstrip("\n"), toks)
