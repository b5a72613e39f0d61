for i in $(seq 12); do
  (cd ../baseline && ./loopbench measure --protocol tcp --clients 16 --window 16 --repetitions 1) >> baseline.json
  ./loopbench measure --protocol tcp --clients 16 --window 16 --repetitions 1 >> candidate.json
done
./loopbench compare baseline.json candidate.json --paired --junit gate.xml
