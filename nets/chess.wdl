# chess: fitted by `cannonade wdl` (maximum likelihood) on 121110 positions of 1486 games (482 mate scores left out) from /tmp/dev/wd/chess.bin, /tmp/wdl/chess.bin; mean log loss 0.6871
# draws: 26.9% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant chess
moves 9 120
a 125.447905 -126.299274 111.769949 7.940884
b 206.552546 -168.679894 87.333412 -6.608279
