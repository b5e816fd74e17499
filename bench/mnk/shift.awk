# Node lines of a version-2 proof with every child ID > 0 shifted by off.
NR > 4 && /^[RM] / {
    for (i = 3; i <= NF; i++) {
        t = $i
        if (substr(t, 1, 1) == ">") {
            id = substr(t, 2) + 0
            if (id > 0)
                $i = ">" (id + off)
        } else if ((p = index(t, "@")) > 0) {
            q = index(t, ":")
            id = substr(t, p + 1, q - p - 1) + 0
            if (id > 0)
                $i = substr(t, 1, p) (id + off) substr(t, q)
        }
    }
    print
}
