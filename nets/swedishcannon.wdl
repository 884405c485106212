# swedishcannon: fitted by `cannonade wdl` (maximum likelihood) on 72144 positions of 1115 games (429 mate scores left out) from /tmp/dev/wd/swedishcannon.bin; mean log loss 0.6233
# draws: 15.8% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant swedishcannon
moves 9 120
a 110.521351 -168.705372 178.183257 -15.399600
b 240.324158 -196.902403 111.723442 -15.037830
