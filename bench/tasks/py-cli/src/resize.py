"""resize: scale image dimensions from the command line."""
import argparse


def parse(argv):
    p = argparse.ArgumentParser(prog="resize")
    p.add_argument("width", type=int)
    p.add_argument("height", type=int)
    p.add_argument("--scale", default=1.0)
    p.add_argument("--keep-aspect", action="store_true")
    return p.parse_args(argv)


def scaled(args):
    w = round(args.width * args.scale)
    h = round(args.height * args.scale)
    if args.keep_aspect and w and h:
        h = round(w * args.height / args.width)
    return w, h


def main(argv):
    w, h = scaled(parse(argv))
    return f"{w}x{h}"
