#!/bin/sh
# SPDX-License-Identifier: MIT
# openssl_workload.sh - the openssl commands the interposer test runs (in the
# current directory, which it writes to). Keys are random, so only what does not
# depend on them is printed: digests of fixed data, a cipher's output with a
# fixed key, "Verified OK", a certificate's subject.
set -e
seq 1 30000 >data.txt
openssl dgst -sha256 -r data.txt | sed "s/ .*//"
openssl dgst -sha512 -r data.txt | sed "s/ .*//"
openssl dgst -sha3-256 -r data.txt | sed 's/ .*//'
openssl enc -aes-256-cbc -K 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
    -iv 0f0e0d0c0b0a09080706050403020100 -in data.txt -out data.enc
openssl dgst -sha256 -r data.enc | sed 's/ .*//'
openssl enc -d -aes-256-cbc -K 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
    -iv 0f0e0d0c0b0a09080706050403020100 -in data.enc | cmp - data.txt && echo "aes-256-cbc round trip"
openssl base64 -in data.enc | openssl base64 -d | cmp - data.enc && echo "base64 round trip"
openssl genrsa -out rsa.pem 2048 2>/dev/null
openssl rsa -in rsa.pem -pubout -out rsa.pub 2>/dev/null
openssl dgst -sha256 -sign rsa.pem -out data.sig data.txt
openssl dgst -sha256 -verify rsa.pub -signature data.sig data.txt
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pem
openssl pkey -in ec.pem -pubout -out ec.pub
openssl dgst -sha256 -sign ec.pem -out data.ecsig data.txt
openssl dgst -sha256 -verify ec.pub -signature data.ecsig data.txt
openssl req -new -x509 -key ec.pem -subj "/CN=stow heap/O=stow" -days 2 -out cert.pem
openssl x509 -in cert.pem -noout -subject
openssl verify -CAfile cert.pem cert.pem
