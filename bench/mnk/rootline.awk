# The root M node of a version-2 proof merged from parts (docs/mnk.md
# "8,8,5"): each root-move class "v:b:id" (Maker's move v, Breaker's reply
# b, the node of the position after both) is mapped by the board's
# symmetries (8 for a square, 4 for a rectangle), so every first move gets
# the image of its class's reply; moves with the same reply and node share
# a group.  The checker verifies the result; nothing here is trusted.
# Usage: awk -v m=8 -v n=8 -f rootline.awk 27:28:22258967 19:27:46425687 ...
function img(s, cell,    r, c, x, y, t) {
    r = int(cell / m); c = cell % m
    x = (s % 2) ? m - 1 - c : c
    y = (int(s / 2) % 2) ? n - 1 - r : r
    if (s >= 4) { t = x; x = y; y = t }
    return y * m + x
}
BEGIN {
    nsym = (m == n) ? 8 : 4
    ng = 0
    for (a = 1; a < ARGC; a++) {
        split(ARGV[a], f, ":")
        for (s = 0; s < nsym; s++) {
            v = img(s, f[1]); b = img(s, f[2])
            if (v in owner)
                continue
            owner[v] = 1
            key = b "@" f[3]
            if (!(key in group)) { order[ng++] = key; group[key] = "" }
            group[key] = group[key] (group[key] == "" ? "" : ",") v
        }
    }
    for (c = 0; c < m * n; c++)
        if (!(c in owner)) { print "rootline: no class covers cell " c > "/dev/stderr"; exit 1 }
    line = "M "
    for (c = 0; c < m * n; c++) line = line "."
    for (i = 0; i < ng; i++) line = line " " order[i] ":" group[order[i]]
    print line
    exit 0
}
