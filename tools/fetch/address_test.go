package fetch

import (
	"net/netip"
	"testing"
)

// TestBlocked is the attacker's table: every way to write a local, private
// or metadata address, judged after resolution as the dialer sees it.
func TestBlocked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ip   string
		want bool
	}{
		{"127.0.0.1", true},
		{"127.1.2.3", true},
		{"0.0.0.0", true},         // reaches the local host on Linux
		{"0.1.2.3", true},         // "this network"
		{"10.0.0.1", true},        // private
		{"172.16.0.1", true},      // private
		{"172.31.255.255", true},  // private
		{"192.168.1.1", true},     // private
		{"169.254.169.254", true}, // cloud metadata
		{"100.100.100.200", true}, // Alibaba metadata (carrier-grade NAT range)
		{"192.0.0.192", true},     // Oracle metadata
		{"224.0.0.1", true},       // multicast
		{"255.255.255.255", true}, // broadcast
		{"::1", true},
		{"::", true},
		{"::ffff:127.0.0.1", true},       // IPv4-mapped loopback
		{"::ffff:169.254.169.254", true}, // IPv4-mapped metadata
		{"::ffff:10.0.0.1", true},
		{"fc00::1", true},
		{"fd00:ec2::254", true}, // AWS IPv6 metadata
		{"fe80::1", true},
		{"fe80::1%eth0", true},
		{"ff02::1", true},
		{"64:ff9b::7f00:1", true},                      // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", true},                   // NAT64 of 169.254.169.254
		{"2002:7f00:1::1", true},                       // 6to4 of 127.0.0.1
		{"2002:c0a8:101::1", true},                     // 6to4 of 192.168.1.1
		{"::127.0.0.1", true},                          // IPv4-compatible (deprecated) loopback
		{"::a9fe:a9fe", true},                          // IPv4-compatible metadata
		{"::ffff:0:127.0.0.1", true},                   // IPv4-translated (SIIT) loopback
		{"::ffff:0:a9fe:a9fe", true},                   // IPv4-translated metadata
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", true}, // Teredo: tunnels to an IPv4 address
		{"fec0::1", true},                              // site-local (deprecated, still routed locally)
		{"192.88.99.1", true},                          // 6to4 relay anycast
		{"8.8.8.8", false},
		{"1.1.1.1", false},
		{"172.32.0.1", false}, // just past 172.16/12
		{"2606:4700:4700::1111", false},
		{"::ffff:8.8.8.8", false},
		{"64:ff9b::808:808", false}, // NAT64 of 8.8.8.8
		{"2002:808:808::1", false},  // 6to4 of 8.8.8.8
	}
	for _, tc := range tests {
		ip := netip.MustParseAddr(tc.ip)
		if got := Blocked(ip); got != tc.want {
			t.Errorf("Blocked(%s) = %v, want %v", tc.ip, got, tc.want)
		}
	}
	if !Blocked(netip.Addr{}) {
		t.Error("the zero address is not blocked")
	}
}

// TestDialControl checks the hook the dialer calls with the resolved address.
func TestDialControl(t *testing.T) {
	t.Parallel()
	control := dialControl(blockedAddrPort)
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:80", false},
		{"[::1]:443", false},
		{"[::ffff:127.0.0.1]:80", false},
		{"169.254.169.254:80", false},
		{"8.8.8.8:443", true},
		{"[2606:4700:4700::1111]:443", true},
		{"localhost:80", false}, // never reached: the dialer resolves first
	} {
		err := control("tcp", tc.addr, nil)
		if (err == nil) != tc.ok {
			t.Errorf("control(%s) = %v, want ok %v", tc.addr, err, tc.ok)
		}
	}
}
