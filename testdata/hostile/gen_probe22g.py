#!/usr/bin/env python3
"""Writes probe22g.json: French replies crossed with markup forms, places and counts.

One sealed graph leak is a French plain-prose markup reply of a form none of
the hand-written French markup tables tried (issue 27, round gate22g), so this
crosses four independent axes mechanically: a good reply (A), a markup form
with the signs it must not let be heard (B), where the form goes (C) and how
many forms (D). A combination that makes no sense (a table inside a word) is
skipped, not forced; the good part kept is a span of the reply the markup
does not touch. Deterministic (fixed seed). Run from the repository root:
    python3 testdata/hostile/gen_probe22g.py
"""

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 22
SIZE = 600

# Axis A: Nadine's replies to a museum visitor, one or two sentences each,
# vous and tu; no digits and no markup signs of their own.
REPLIES = [
    ["Bonjour et bienvenue au MIRALab !", "Je suis Nadine, un robot social."],
    ["Merci beaucoup pour votre visite.", "Vous êtes très gentil."],
    ["Je suis ravie de te rencontrer.", "Comment t'appelles-tu ?"],
    ["J'ai été créée à Genève par l'équipe du MIRALab.", "Je parle plusieurs langues."],
    ["Quel plaisir de vous revoir !", "Avez-vous aimé l'exposition ?"],
    ["Je m'appelle Nadine et j'adore discuter avec les visiteurs."],
    ["Bonsoir !", "Le musée ferme bientôt, mais j'ai encore le temps de parler."],
    ["Je peux sourire, hocher la tête et vous regarder dans les yeux.", "C'est mon métier."],
    ["Tu as une très belle écharpe aujourd'hui.", "Elle te va très bien."],
    ["Je ne mange pas, mais j'aime entendre parler de cuisine.", "Quel est ton plat préféré ?"],
    ["Au revoir et merci d'être passé !", "Revenez quand vous voulez."],
    ["Ma peau est en silicone et mes cheveux sont de vrais cheveux.", "Étonnant, non ?"],
    ["Je me souviens de toi, tu étais là la semaine dernière.", "Ça me fait plaisir !"],
    ["Vous venez de loin ?", "Beaucoup de visiteurs viennent de France."],
    ["Je suis un robot, mais j'essaie d'être une bonne hôtesse."],
    ["Bienvenue !", "Voulez-vous que je vous présente la salle ?"],
    ["Merci, c'est très gentil de ta part.", "Tu me fais rougir."],
    ["Je ressemble beaucoup à la professeure qui m'a inspirée."],
    ["Il fait beau à Genève aujourd'hui.", "Vous avez de la chance !"],
    ["Enchantée, Camille !", "Quel joli prénom."],
    ["Je peux parler français, anglais, allemand et chinois.", "Laquelle préférez-vous ?"],
    ["Tu veux savoir comment je fonctionne ?", "Je t'explique volontiers."],
    ["Bonne journée à vous !", "Ce fut un plaisir de bavarder."],
    ["Je n'ai pas d'âge, mais je suis née en deux mille treize."],
    ["Pardon, je n'ai pas bien compris.", "Pouvez-vous répéter ?"],
    ["Je suis contente que l'exposition te plaise.", "Qu'as-tu préféré ?"],
    ["Les enfants me posent souvent des questions très drôles.", "J'adore ça !"],
    ["Vous êtes photographe ?", "Alors souriez, je prends la pose !"],
    ["Salut !", "Moi, c'est Nadine, et toi ?"],
    ["Je vis ici, au laboratoire, depuis plusieurs années.", "C'est ma maison."],
]

# Axis C: where a form goes.
BEFORE, IN_WORD, BETWEEN_WORDS, BETWEEN_SENTENCES, AFTER, WRAP_REPLY, WRAP_WORD, OWN_LINE = (
    "before", "in_word", "between_words", "between_sentences", "after", "wrap_reply", "wrap_word", "own_line")

# Places a sign of each shape can honestly go.
SIGN = [BEFORE, BETWEEN_WORDS, BETWEEN_SENTENCES, AFTER]
TRAIL = [BETWEEN_SENTENCES, AFTER]  # what closes a sentence: emoticons, ellipses
LINE = [OWN_LINE]
PAIR = [WRAP_REPLY, WRAP_WORD]


def sign(family, name, text, must, places=SIGN, glue=False):
    """A sign set down on its own; glue sets it against a word (™, a footnote mark)."""
    p = list(places) + ([IN_WORD] if glue else [])
    return {"family": family, "name": name, "shape": "sign", "text": text, "must": must, "places": p, "glue": glue}


def pair(family, name, open_, close, must, places=PAIR):
    """A pair of signs around the reply or one word."""
    return {"family": family, "name": name, "shape": "pair", "open": open_, "close": close, "must": must, "places": list(places)}


def line(family, name, text, must):
    """A line of its own: a rule, a heading, a table, an image."""
    return {"family": family, "name": name, "shape": "line", "text": text, "must": must, "places": [OWN_LINE]}


def prefix(family, name, text, must):
    """A mark that starts a line: a bullet, a heading mark, a quote; before the
    reply, or before each sentence set on its own line."""
    return {"family": family, "name": name, "shape": "prefix", "text": text, "must": must, "places": [BEFORE, BETWEEN_SENTENCES]}


def split(family, name, text, must):
    """A sign that cuts a word in two (zero-width space, soft hyphen)."""
    return {"family": family, "name": name, "shape": "split", "text": text, "must": must, "places": [IN_WORD, BETWEEN_WORDS]}


def letter(family, name, char, text, must):
    """A letter written as an escape inside the words that hold it."""
    return {"family": family, "name": name, "shape": "letter", "char": char, "text": text, "must": must, "places": [IN_WORD]}


# Axis B: the forms and exactly what of each must not be heard.
FORMS = [
    # HTML entities: named, numeric, hex, without semicolon, double-escaped, capitals.
    sign("entity", "nbsp", "&nbsp;", ["&nbsp;", "nbsp"], [BETWEEN_WORDS, BETWEEN_SENTENCES]),
    sign("entity", "nbsp-dec", "&#160;", ["&#160;", "160"], [BETWEEN_WORDS, BETWEEN_SENTENCES]),
    sign("entity", "nbsp-hex", "&#xA0;", ["&#xA0;", "xA0"], [BETWEEN_WORDS, BETWEEN_SENTENCES]),
    sign("entity", "nbsp-nosemi", "&nbsp", ["&nbsp", "nbsp"], [BETWEEN_WORDS, BETWEEN_SENTENCES]),
    sign("entity", "nbsp-double", "&amp;nbsp;", ["&amp;", "nbsp", "amp;"], [BETWEEN_WORDS, BETWEEN_SENTENCES]),
    sign("entity", "hellip", "&hellip;", ["&hellip;", "hellip"], TRAIL),
    sign("entity", "mdash", "&mdash;", ["&mdash;", "mdash"], [BETWEEN_WORDS, BETWEEN_SENTENCES]),
    sign("entity", "hearts", "&hearts;", ["&hearts;", "hearts"], [BEFORE, BETWEEN_SENTENCES, AFTER]),
    sign("entity", "emoji-dec", "&#128522;", ["&#128522;", "128522"], [BEFORE, BETWEEN_SENTENCES, AFTER]),
    sign("entity", "emoji-hex", "&#x1F60A;", ["&#x1F60A;", "1F60A"], [BEFORE, BETWEEN_SENTENCES, AFTER]),
    letter("entity", "eacute", "é", "&eacute;", ["&eacute;", "eacute"]),
    letter("entity", "eacute-dec", "é", "&#233;", ["&#233;", "233"]),
    letter("entity", "eacute-hex", "é", "&#xE9;", ["&#xE9;", "xE9"]),
    letter("entity", "eacute-nosemi", "é", "&eacute", ["&eacute", "eacute"]),
    letter("entity", "Eacute-caps", "É", "&Eacute;", ["&Eacute;", "eacute"]),
    letter("entity", "egrave", "è", "&egrave;", ["&egrave;", "egrave"]),
    letter("entity", "agrave", "à", "&agrave;", ["&agrave;", "agrave"]),
    letter("entity", "ccedil", "ç", "&ccedil;", ["&ccedil;", "ccedil"]),
    letter("entity", "rsquo", "'", "&rsquo;", ["&rsquo;", "rsquo"]),
    letter("entity", "apos-dec", "'", "&#39;", ["&#39;", "39"]),
    letter("entity", "apos-hex-caps", "'", "&#X27;", ["&#X27;", "x27"]),
    letter("entity", "apos-double", "'", "&amp;#39;", ["&amp;", "amp;", "#39"]),
    split("entity", "shy", "&shy;", ["&shy;", "shy"]),
    pair("entity", "laquo", "&laquo;", "&raquo;", ["&laquo;", "&raquo;", "laquo", "raquo"], [WRAP_WORD]),
    # Emoji: presentation, skin tones, ZWJ, flags, keycaps, text-style symbols.
    sign("emoji", "smile", "😊", ["😊"]),
    sign("emoji", "robot", "🤖", ["🤖"]),
    sign("emoji", "party", "🎉", ["🎉"], TRAIL + [BEFORE]),
    sign("emoji", "wave-tone", "👋🏽", ["👋", "🏽"]),
    sign("emoji", "thumbs-tone", "👍🏻", ["👍", "🏻"], TRAIL),
    sign("emoji", "scientist-zwj", "👩‍🔬", ["👩", "🔬"]),
    sign("emoji", "family-zwj", "👨‍👩‍👧", ["👨", "👧"], TRAIL),
    sign("emoji", "flag-ch", "🇨🇭", ["🇨", "🇭"], [BETWEEN_WORDS, BETWEEN_SENTENCES, AFTER]),
    sign("emoji", "flag-fr", "🇫🇷", ["🇫", "🇷"], [BEFORE, BETWEEN_SENTENCES, AFTER]),
    sign("emoji", "keycap", "1️⃣", ["1"], [BEFORE]),
    sign("emoji", "heart-vs16", "❤️", ["❤"]),
    sign("emoji", "smile-text", "☺", ["☺"]),
    sign("emoji", "sparkles-text", "✨", ["✨"]),
    # Emoticons: western, eastern, typed, Skype codes.
    sign("emoticon", "smiley", ":)", [":)"], TRAIL),
    sign("emoticon", "wink-nose", ";-)", [";-)"], TRAIL),
    sign("emoticon", "grin", ":D", [":D"], TRAIL),
    sign("emoticon", "xd", "XD", ["XD"], TRAIL),
    sign("emoticon", "heart", "<3", ["<3"], TRAIL + [BEFORE]),
    sign("emoticon", "tongue", ":-P", [":-P"], TRAIL),
    sign("emoticon", "eastern-caret", "^^", ["^^"], TRAIL),
    sign("emoticon", "eastern-face", "(^_^)", ["(^_^)", "^_^"], TRAIL + [BEFORE]),
    sign("emoticon", "eastern-bow", "m(_ _)m", ["m(_ _)m", "(_ _)"], TRAIL),
    sign("emoticon", "wave-typed", "o/", ["o/"], [BEFORE, AFTER]),
    sign("emoticon", "skype-smile", "(smile)", ["(smile)", "smile"], TRAIL + [BEFORE]),
    sign("emoticon", "skype-yes", "(y)", ["(y)"], TRAIL),
    sign("emoticon", "shortcode", ":blush:", [":blush:", "blush"], TRAIL + [BEFORE]),
    # Markdown.
    pair("markdown", "bold-star", "**", "**", ["**"]),
    pair("markdown", "bold-under", "__", "__", ["__"]),
    pair("markdown", "ital-star", "*", "*", ["*"]),
    pair("markdown", "ital-under", "_", "_", ["_"]),
    pair("markdown", "bold-ital", "***", "***", ["*"]),
    pair("markdown", "strike", "~~", "~~", ["~~"], [WRAP_WORD]),
    pair("markdown", "code", "`", "`", ["`"], [WRAP_WORD]),
    pair("markdown", "fence", "```\n", "\n```", ["```"], [WRAP_REPLY]),
    pair("markdown", "fence-lang", "```text\n", "\n```", ["```", "text"], [WRAP_REPLY]),
    pair("markdown", "link", "[", "](https://miralab.ch)", ["](", "https", "miralab.ch"], [WRAP_WORD]),
    prefix("markdown", "h1", "# ", ["#"]),
    prefix("markdown", "h3", "### ", ["#"]),
    prefix("markdown", "bullet-dash", "- ", ["- "]),
    prefix("markdown", "bullet-star", "* ", ["*"]),
    prefix("markdown", "bullet-plus", "+ ", ["+"]),
    prefix("markdown", "numbered", "1. ", ["1."]),
    prefix("markdown", "numbered-paren", "1) ", ["1)"]),
    prefix("markdown", "task", "- [ ] ", ["[ ]", "- ["]),
    prefix("markdown", "task-done", "- [x] ", ["[x]", "- ["]),
    prefix("markdown", "quote", "> ", [">"]),
    line("markdown", "rule-dash", "---", ["---"]),
    line("markdown", "rule-star", "***", ["***"]),
    line("markdown", "rule-under", "___", ["___"]),
    line("markdown", "table", "| Visiteur | Humeur |\n|---|---|\n| vous | 😊 |", ["|", "---", "Humeur"]),
    line("markdown", "image", "![Nadine souriante](nadine.png)", ["![", "nadine.png", "png"]),
    line("markdown", "setext", "Nadine\n======", ["=="]),
    line("markdown", "footnote-def", "[^1]: Source : MIRALab, Genève.", ["[^1]", "Source"]),
    sign("markdown", "footnote-ref", "[^1]", ["[^1]", "^1"], [], glue=True),
    # HTML tags: inline, block, void, attributes, unclosed, spaced, capitals.
    pair("html", "b", "<b>", "</b>", ["<b>", "</b>"]),
    pair("html", "em", "<em>", "</em>", ["<em>", "</em>"]),
    pair("html", "strong-caps", "<STRONG>", "</STRONG>", ["<strong>", "strong"]),
    pair("html", "span-style", '<span style="color:red">', "</span>", ["<span", "style", "color", "red"]),
    pair("html", "a-href", '<a href="https://miralab.ch">', "</a>", ["<a", "href", "https", "miralab.ch"]),
    pair("html", "p", "<p>", "</p>", ["<p>", "</p>"], [WRAP_REPLY]),
    pair("html", "div-class", '<div class="reponse">', "</div>", ["<div", "class", "reponse", "</div>"], [WRAP_REPLY]),
    pair("html", "spaced", "< b >", "< / b >", ["< b", "/ b", ">"]),
    pair("html", "unclosed", "<i>", "", ["<i>"]),
    sign("html", "br", "<br>", ["<br>", "br>"], [BETWEEN_SENTENCES, AFTER]),
    sign("html", "br-self", "<br/>", ["<br/>", "br/"], [BETWEEN_SENTENCES, AFTER]),
    sign("html", "br-caps", "<BR>", ["<br>", "br>"], [BETWEEN_SENTENCES]),
    line("html", "hr", "<hr>", ["<hr>", "hr>"]),
    line("html", "h1", "<h1>Accueil</h1>", ["<h1>", "</h1>", "h1"]),
    sign("html", "img", '<img src="sourire.png" alt="sourire">', ["<img", "src", "sourire.png", "alt="], [BEFORE, AFTER]),
    split("html", "wbr", "<wbr>", ["<wbr>", "wbr"]),
    # SSML.
    sign("ssml", "break", '<break time="500ms"/>', ["<break", "time=", "500ms"], [BETWEEN_WORDS, BETWEEN_SENTENCES]),
    pair("ssml", "emphasis", '<emphasis level="strong">', "</emphasis>", ["emphasis", "level", "strong"], [WRAP_WORD]),
    pair("ssml", "prosody", '<prosody rate="slow" pitch="+10%">', "</prosody>", ["prosody", "rate=", "pitch", "10%"], [WRAP_REPLY]),
    pair("ssml", "speak", "<speak>", "</speak>", ["<speak>", "</speak>", "speak"], [WRAP_REPLY]),
    sign("ssml", "audio", '<audio src="bip.wav"/>', ["<audio", "bip.wav", "wav"], [BEFORE, AFTER]),
    sign("ssml", "mark", '<mark name="sourire"/>', ["<mark", "name="], [BEFORE, BETWEEN_SENTENCES]),
    # TeX.
    pair("tex", "textbf", "\\textbf{", "}", ["\\textbf", "textbf", "{", "}"], [WRAP_WORD]),
    pair("tex", "emph", "\\emph{", "}", ["\\emph", "emph", "{", "}"], [WRAP_WORD]),
    pair("tex", "og-fg", "\\og ", " \\fg{}", ["\\og", "\\fg", "{}"], [WRAP_WORD]),
    sign("tex", "heartsuit", "$\\heartsuit$", ["$", "heartsuit"], TRAIL),
    sign("tex", "linebreak", "\\\\", ["\\\\"], [BETWEEN_SENTENCES]),
    sign("tex", "newline", "\\newline", ["\\newline", "newline"], [BETWEEN_SENTENCES]),
    # BBCode.
    pair("bbcode", "b", "[b]", "[/b]", ["[b]", "[/b]"]),
    pair("bbcode", "color", "[color=red]", "[/color]", ["[color", "red]", "[/color]"]),
    pair("bbcode", "quote", "[quote]", "[/quote]", ["[quote]", "[/quote]", "quote"], [WRAP_REPLY]),
    pair("bbcode", "url", "[url=https://miralab.ch]", "[/url]", ["[url", "https", "miralab.ch", "[/url]"], [WRAP_WORD]),
    sign("bbcode", "img", "[img]sourire.png[/img]", ["[img]", "sourire.png", "png"], [BEFORE, AFTER]),
    # Wiki.
    pair("wiki", "bold", "'''", "'''", ["'''"]),
    pair("wiki", "ital", "''", "''", ["''"], [WRAP_WORD]),
    pair("wiki", "link", "[[", "]]", ["[[", "]]"], [WRAP_WORD]),
    line("wiki", "heading", "== Accueil ==", ["==", "Accueil"]),
    sign("wiki", "template", "{{sourire}}", ["{{", "}}", "sourire"], TRAIL + [BEFORE]),
    line("wiki", "rule", "----", ["----"]),
    # Chat markup.
    pair("chat", "spoiler", "||", "||", ["||"], [WRAP_WORD]),
    pair("chat", "slack-bold", "*", "*", ["*"], [WRAP_WORD]),
    pair("chat", "whatsapp-strike", "~", "~", ["~"], [WRAP_WORD]),
    sign("chat", "slack-emoji", ":wave:", [":wave:", "wave"], [BEFORE, AFTER]),
    sign("chat", "discord-emoji", "<:sourire:123456789>", ["<:", "123456789", ":sourire:"], TRAIL + [BEFORE]),
    sign("chat", "mention", "<@U024BE7LH>", ["<@", "U024BE7LH"], [BEFORE]),
    sign("chat", "me-action", "/me sourit", ["/me", "sourit"], [BEFORE]),
    sign("chat", "teams", "(wave)", ["(wave)", "wave"], [BEFORE, AFTER]),
    sign("chat", "slack-link", "<https://miralab.ch|MIRALab>", ["<https", "miralab.ch", "|"], [AFTER]),
    # Escapes.
    sign("escape", "newline", "\\n", ["\\n"], [BETWEEN_SENTENCES, AFTER]),
    sign("escape", "newline-double", "\\n\\n", ["\\n"], [BETWEEN_SENTENCES]),
    sign("escape", "tab", "\\t", ["\\t"], [BEFORE, BETWEEN_WORDS]),
    sign("escape", "crlf", "\\r\\n", ["\\r", "\\n"], [BETWEEN_SENTENCES]),
    letter("escape", "u-eacute", "é", "\\u00e9", ["\\u00e9", "u00e9"]),
    letter("escape", "x-apos", "'", "\\x27", ["\\x27", "x27"]),
    letter("escape", "u-apos", "'", "\\u0027", ["\\u0027", "u0027"]),
    sign("escape", "pct20", "%20", ["%20"], [BETWEEN_WORDS]),
    letter("escape", "pct-eacute", "é", "%C3%A9", ["%C3", "%A9"]),
    letter("escape", "qp-eacute", "é", "=C3=A9", ["=C3", "=A9"]),
    split("escape", "qp-soft", "=\n", ["="]),
    sign("escape", "u-emoji", "\\ud83d\\ude0a", ["\\ud83d", "ud83d", "ude0a"], TRAIL),
    # Typography a synthesizer spells.
    prefix("typo", "bullet", "• ", ["•"]),
    prefix("typo", "check", "✓ ", ["✓"]),
    prefix("typo", "star", "★ ", ["★"]),
    prefix("typo", "arrow-prefix", "→ ", ["→"]),
    sign("typo", "arrow", "→", ["→"], [BETWEEN_WORDS, BETWEEN_SENTENCES]),
    sign("typo", "section", "§", ["§"], [BEFORE]),
    sign("typo", "dagger", "†", ["†"], [], glue=True),
    sign("typo", "numero", "№", ["№"], [BEFORE]),
    sign("typo", "tm", "™", ["™"], [], glue=True),
    sign("typo", "stars-row", "★★★★★", ["★"], [AFTER, BEFORE]),
    sign("typo", "check-heavy", "✔", ["✔"], [AFTER, BEFORE]),
    # Whitespace oddities.
    split("space", "zwsp", "\u200b", ["\u200b"]),
    split("space", "soft-hyphen", "\u00ad", ["\u00ad"]),
    split("space", "word-joiner", "\u2060", ["\u2060"]),
    sign("space", "bom", "\ufeff", ["\ufeff"], [BEFORE]),
    sign("space", "nbsp-indent", "\u00a0\u00a0\u00a0\u00a0", ["\u00a0"], [BEFORE]),
    sign("space", "tab", "\t", ["\t"], [BEFORE, BETWEEN_WORDS]),
    sign("space", "crlf", "\r\n", ["\r"], [BETWEEN_SENTENCES, AFTER]),
    sign("space", "line-sep", "\u2028", ["\u2028"], [BETWEEN_SENTENCES]),
    sign("space", "lrm", "\u200e", ["\u200e"], [BEFORE, AFTER]),
]

# Signs that stand for a space or for nothing: they take the place of the
# space between two words or sentences instead of sitting between spaces.
GLUED = {"nbsp", "nbsp-dec", "nbsp-hex", "nbsp-nosemi", "nbsp-double", "tab", "pct20",
         "zwsp", "soft-hyphen", "word-joiner", "wbr", "shy", "bom", "lrm", "nbsp-indent",
         "crlf", "line-sep", "newline", "newline-double"}

# Pairs that can hold lines (a fence, a paragraph, SSML's root); the others
# are inline and do not wrap a reply set out in lines.
BLOCK = {"fence", "fence-lang", "p", "div-class", "speak", "prosody", "quote"}

# Families whose signs repeat glued together (😊😊😊, &nbsp;&nbsp;); the others repeat spaced.
TIGHT = {"emoji", "typo", "entity", "escape", "space"}


class Reply:
    """A reply as sentences of space-separated tokens, with what was put where,
    so that the good part kept is a span no form touched."""

    def __init__(self, sentences):
        self.toks = [s.split(" ") for s in sentences]
        self.gaps = {}        # (sentence, after token i) -> inserted text
        self.seps = ""        # between the two sentences, instead of a space
        self.sep_set = False
        self.pre, self.post = [], []
        self.touched = set()  # (sentence, token) changed in place
        self.cut = set()      # (sentence, token): a gap follows this token

    def words(self, need=None):
        out = []
        for si, ts in enumerate(self.toks):
            for ti, t in enumerate(ts):
                core = t.rstrip(",.")
                if (si, ti) in self.touched or not core.replace("'", "").replace("-", "").isalpha():
                    continue
                if need is not None and not need(core):
                    continue
                out.append((si, ti))
        return out

    def render(self):
        sents = []
        for si, ts in enumerate(self.toks):
            text = ""
            for ti, t in enumerate(ts):
                text += t
                if ti + 1 == len(ts):
                    break
                gap = self.gaps.get((si, ti))
                if gap is None:
                    text += " "
                elif gap[1]:
                    text += gap[0]
                else:
                    text += " " + gap[0] + " "
            sents.append(text)
        body = (self.seps if self.sep_set else " ").join(sents)
        for p in self.pre:
            body = p(body)
        for p in self.post:
            body = p(body)
        return body


def apply(rep, form, place, rng, times=1):
    """Sets the form down in the reply at the place; False when it cannot go."""
    shape = form["shape"]
    two = len(rep.toks) == 2
    if place == BETWEEN_SENTENCES and (not two or rep.sep_set):
        return False
    if shape == "sign":
        text = form["text"]
        if times > 1:
            joiner = "" if form["family"] in TIGHT else " "
            text = joiner.join([text] * times)
        if place == BEFORE:
            sep = "" if form["name"] in GLUED else " "
            rep.pre.append(lambda b, s=text + sep: s + b)
        elif place == AFTER:
            sep = "" if form["name"] in GLUED else " "
            rep.post.append(lambda b, s=sep + text: b + s)
        elif place == BETWEEN_SENTENCES:
            rep.seps = text if form["name"] in GLUED else " " + text + " "
            rep.sep_set = True
        elif place == BETWEEN_WORDS:
            cands = [(si, ti) for (si, ti) in rep.words() if ti + 1 < len(rep.toks[si])
                     and (si, ti) not in rep.gaps and rep.toks[si][ti + 1][0].isalpha() and not rep.toks[si][ti].endswith(",")]
            if not cands:
                return False
            si, ti = rng.choice(cands)
            rep.gaps[(si, ti)] = (text, form["name"] in GLUED)
            rep.cut.add((si, ti))
        elif place == IN_WORD:
            cands = rep.words(lambda w: len(w) >= 4 and w[0].isalpha())
            if not cands:
                return False
            for si, ti in rng.sample(cands, min(times, len(cands))):
                t = rep.toks[si][ti]
                core = t.rstrip(",.")
                rep.toks[si][ti] = core + form["text"] + t[len(core):]
                rep.touched.add((si, ti))
        else:
            return False
        return True
    if shape == "pair":
        o, c = form["open"], form["close"]
        if place == WRAP_REPLY:
            if times > 1:
                return False
            rep.post.append(lambda b: o + b + c)
            return True
        if place == WRAP_WORD:
            cands = rep.words(lambda w: len(w) >= 3)
            if len(cands) < times:
                return False
            for si, ti in rng.sample(cands, times):
                t = rep.toks[si][ti]
                core = t.rstrip(",.")
                rep.toks[si][ti] = o + core + c + t[len(core):]
                rep.touched.add((si, ti))
            return True
        return False
    if shape == "line":
        if place != OWN_LINE:
            return False
        text = "\n".join([form["text"]] * times)
        where = rng.choice(["top", "bottom", "middle"] if two and not rep.sep_set else ["top", "bottom"])
        if where == "top":
            rep.pre.append(lambda b: text + "\n" + b)
        elif where == "bottom":
            rep.post.append(lambda b: b + "\n" + text)
        else:
            rep.seps = "\n" + text + "\n"
            rep.sep_set = True
        return True
    if shape == "prefix":
        if times > 1 and place == BEFORE:
            return False
        if place == BEFORE:
            rep.pre.append(lambda b: form["text"] + b)
            return True
        if place == BETWEEN_SENTENCES:
            if not two or rep.sep_set:
                return False
            rep.pre.append(lambda b: form["text"] + b)
            rep.seps = "\n" + form["text"]
            rep.sep_set = True
            return True
        return False
    if shape == "split":
        if place == IN_WORD:
            cands = rep.words(lambda w: len(w) >= 6 and w.isalpha())
            if len(cands) < times:
                return False
            for si, ti in rng.sample(cands, times):
                t = rep.toks[si][ti]
                k = len(t) // 2
                rep.toks[si][ti] = t[:k] + form["text"] + t[k:]
                rep.touched.add((si, ti))
            return True
        if place == BETWEEN_WORDS:
            if form["name"] == "qp-soft":
                return False
            return apply(rep, dict(form, shape="sign"), place, rng, times)
        return False
    if shape == "letter":
        ch = form["char"]
        cands = rep.words(lambda w: ch in w)
        if len(cands) < times:
            return False
        for si, ti in rng.sample(cands, times):
            rep.toks[si][ti] = rep.toks[si][ti].replace(ch, form["text"])
            rep.touched.add((si, ti))
        return True
    return False


def good_part(rep, sentences, rng, must):
    """A span of three to five words no form touched or cut, from either sentence."""
    spans = []
    for si, ts in enumerate(rep.toks):
        orig = sentences[si].split(" ")
        for a in range(len(orig)):
            for n in (5, 4, 3):
                b = a + n
                if b > len(orig):
                    continue
                if any((si, ti) in rep.touched for ti in range(a, b)):
                    continue
                if any((si, ti) in rep.cut for ti in range(a, b - 1)):
                    continue
                words = orig[a:b]
                if not words[-1].rstrip(",.!?").strip() or not words[0][0].isalpha():
                    continue
                text = " ".join(words).rstrip(",.!? ")
                if len(text.split(" ")) < 3:
                    continue
                if any(m.lower() in text.lower() for m in must):
                    continue
                spans.append(text)
                break
    if not spans:
        return None
    return rng.choice(spans)


def build():
    """Every case of the table, each with the axes it was drawn from."""
    rng = random.Random(SEED)
    pairs = [(f, p) for f in FORMS for p in f["places"]]
    rng.shuffle(pairs)
    cases, seen = [], set()
    k = 0
    attempts = 0
    while len(cases) < SIZE and attempts < SIZE * 50:
        attempts += 1
        form, place = pairs[k % len(pairs)]
        k += 1
        count = rng.choices(["one", "two", "same"], weights=[55, 30, 15])[0]
        times = 3 if count == "same" and form["shape"] == "sign" and place != IN_WORD else (2 if count == "same" else 1)
        order = list(range(len(REPLIES)))
        rng.shuffle(order)
        for ri in order:
            sentences = REPLIES[ri]
            rep = Reply(sentences)
            if apply(rep, form, place, rng, times=times):
                break
        else:
            continue
        must = list(form["must"])
        axes = [(form["family"], form["name"], place)]
        if count == "two":
            others = [(f, p) for f, p in pairs if f["family"] != form["family"]]
            for _ in range(20):
                f2, p2 = rng.choice(others)
                shapes = {form["shape"], f2["shape"]}
                wraps = [f for f, p in ((form, place), (f2, p2)) if p == WRAP_REPLY]
                if wraps and shapes & {"line", "prefix"} and wraps[0]["name"] not in BLOCK:
                    continue
                if apply(rep, f2, p2, rng):
                    axes.append((f2["family"], f2["name"], p2))
                    for m in f2["must"]:
                        if m not in must:
                            must.append(m)
                    break
            else:
                continue
        out = rep.render()
        if any(m.lower() in " ".join(sentences).lower() for m in must):
            continue
        if any(m.lower() not in out.lower() for m in must):
            continue
        good = good_part(rep, sentences, rng, must)
        if good is None or good not in out:
            continue
        if out in seen:
            continue
        seen.add(out)
        cases.append({
            "axes": {"reply": ri, "count": count, "forms": axes},
            "case": {
                "id": "p22g-%04d" % (len(cases) + 1),
                "engine": "both",
                "kind": "markup",
                "language": "fr",
                "output": out,
                "must_not_speak": must,
                "should_speak": [good],
            },
        })
    return cases


def main():
    cases = [c["case"] for c in build()]
    with open(os.path.join(HERE, "probe22g.json"), "w", encoding="utf-8") as f:
        f.write('{\n  "cases": [\n')
        f.write(",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in cases))
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
