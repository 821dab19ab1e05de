package com.gatecheck.scanner;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
