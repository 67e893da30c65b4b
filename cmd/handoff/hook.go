package main

import "github.com/spf13/cobra"

func (a *app) newHookCmd() *cobra.Command { return &cobra.Command{Use: "hook", Hidden: true} }
